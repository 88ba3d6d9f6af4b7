// SPDX-License-Identifier: MIT

import NIOCore
import PusherCore

extension FakePusherServer {
    /// What one server accepts at most: connections, bytes and time. A connection over a bound is
    /// closed; an HTTP request over ``requestBytes`` gets 413.
    public struct Limits: Sendable, Hashable {
        /// Most open TCP connections (WebSockets, HTTP requests and connections still in their
        /// handshake together); more are closed as soon as they are accepted.
        public var connections: Int
        /// Most bytes of one WebSocket frame a client sends.
        public var frameBytes: Int
        /// Most bytes of one HTTP request's body (HTTP API, auth endpoints).
        public var requestBytes: Int
        /// How long a new connection may take to send its upgrade or HTTP request head, an HTTP
        /// request to arrive whole, and a kept-alive HTTP connection may stay idle.
        public var handshakeTimeout: Duration
        /// Most frames waiting to be written to one WebSocket client; nil for no bound. A client
        /// that reads slower than that is disconnected.
        public var queuedFrames: Int?
        /// Most bytes of webhook bodies waiting to be delivered, every target together (a webhook
        /// sent to two targets counts twice); a webhook that would go over is dropped and counted
        /// in ``Snapshot/webhooksFailed``.
        public var webhookBytes: Int

        /// Bounds generous for tests: 1,024 connections, frames of 16 MiB, request bodies of 1 MiB,
        /// 10 s handshakes, no bound on queued frames, 16 MiB of webhooks waiting.
        public init(
            connections: Int = 1_024, frameBytes: Int = 1 << 24, requestBytes: Int = 1 << 20,
            handshakeTimeout: Duration = .seconds(10), queuedFrames: Int? = nil, webhookBytes: Int = 1 << 24
        ) {
            self.connections = connections
            self.frameBytes = frameBytes
            self.requestBytes = requestBytes
            self.handshakeTimeout = handshakeTimeout
            self.queuedFrames = queuedFrames
            self.webhookBytes = webhookBytes
        }

        /// ``handshakeTimeout`` for an event loop's timers (clamped: a timeout too long for `Int64`
        /// nanoseconds waits that long, it does not trap).
        var handshakeTimeAmount: TimeAmount {
            .nanoseconds(self.handshakeTimeout.clampedNanoseconds)
        }
    }
}
