// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// The sockets of one connection attempt, whatever phase it is in (TCP connect, TLS handshake,
/// WebSocket upgrade, open), so that cancelling the attempt drops every one of them at once: NIO's
/// futures ignore task cancellation, and a server that never answers must not keep a socket, or
/// the task waiting on it, alive. Once upgraded, it also keeps the open WebSocket for
/// ``NIOWebSocketConnection`` (under the same lock: a dropped attempt has none).
final class ConnectionAttempt: Sendable {
    /// The open WebSocket of an upgraded attempt: its channel, and its frame handler (used on the
    /// channel's event loop).
    struct Open: Sendable {
        let channel: any Channel
        let handler: NIOLoopBound<PusherFrameHandler>
    }

    private struct State {
        var channels: [any Channel] = []
        var isDropped = false
        var open: Open?
    }

    private let state = NIOLockedValueBox(State())

    /// Takes a socket as the bootstrap creates it; false once the attempt was dropped (the channel
    /// initializer then fails, and the bootstrap closes the socket).
    func adopt(_ channel: any Channel) -> Bool {
        self.state.withLockedValue { state in
            guard !state.isDropped else { return false }
            state.channels.append(channel)
            return true
        }
    }

    /// The upgrade is done: `channel` and `handler` are the attempt's WebSocket, unless the
    /// attempt was dropped first (or has one already).
    func opened(_ channel: any Channel, handler: PusherFrameHandler) {
        let open = Open(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
        self.state.withLockedValue { state in
            if !state.isDropped && state.open == nil { state.open = open }
        }
    }

    /// The attempt's WebSocket once it is upgraded, until it is dropped.
    var open: Open? {
        self.state.withLockedValue { $0.isDropped ? nil : $0.open }
    }

    /// Closes every socket taken so far and refuses later ones. Safe from any thread, and more than once.
    func drop() {
        let channels = self.state.withLockedValue { state in
            state.isDropped = true
            return state.channels
        }
        for channel in channels { Self.drop(channel) }
    }

    /// Suspends until every socket taken is closed.
    func closed() async {
        for channel in self.state.withLockedValue({ $0.channels }) {
            try? await channel.closeFuture.get()
        }
    }

    /// Closes `channel` at once. With TLS the close starts below the TLS handler: a graceful TLS
    /// close waits for the peer's close_notify, which a server that does not answer never sends.
    private static func drop(_ channel: any Channel) {
        channel.eventLoop.execute {
            let pipeline = channel.pipeline.syncOperations
            if let tls = try? pipeline.context(handlerType: NIOSSLClientHandler.self) {
                tls.close(promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
    }
}
