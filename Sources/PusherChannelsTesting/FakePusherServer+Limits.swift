// SPDX-License-Identifier: MIT

import NIOCore
import PusherCore

extension FakePusherServer {
    /// What one server accepts at most: connections, bytes and time. A connection over a bound is
    /// closed; an HTTP request over ``requestBytes`` gets 413.
    public struct Limits: Sendable, Hashable {
        /// Most open WebSockets; an upgrade over it gets 503 (the HTTP API keeps answering).
        public var connections: Int
        /// Most other TCP connections at once (still in their handshake, or HTTP); more are closed as
        /// soon as they are accepted. Counted apart from WebSockets, so that a full house of
        /// WebSockets never stops the HTTP API.
        public var pendingConnections: Int = 256
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
        /// Most bytes waiting to be written to one WebSocket client; nil for no bound. A client that
        /// reads slower than that is disconnected.
        public var queuedBytes: Int? = nil
        /// How long a connection the server pinged (after `activity_timeout` of silence) has to
        /// answer before it is closed with 4201; nil never closes it.
        public var pongTimeout: Duration? = .seconds(30)
        /// Most members of one presence channel (Pusher's: 100); more get
        /// `pusher:subscription_error` with type `LimitReached`.
        public var presenceMembers = 100
        /// Most bytes of a presence member's `user_info` as JSON (Pusher's: 1 KB).
        public var presenceUserInfoBytes = 1_024
        /// Most characters of a presence member's `user_id` (Pusher's: 128).
        public var presenceUserIDLength = 128
        /// Most bytes of a client event's `data` (Pusher's: 10 KB); a larger one gets `pusher:error`.
        public var clientEventDataBytes = 10_240
        /// Most bytes of messages recorded (``Configuration/recordsTraffic``); past it messages are
        /// still handled but no longer recorded.
        public var recordedBytes = 64 << 20
        /// Most closed connections recorded; past it the oldest are forgotten.
        public var recordedConnections = 10_000

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
