// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// The sockets of one connection attempt, whatever phase it is in (TCP connect, TLS handshake,
/// WebSocket upgrade, open), so that cancelling the attempt drops every one of them at once: NIO's
/// futures ignore task cancellation, and a server that never answers must not keep a socket, or
/// the task waiting on it, alive.
final class ConnectionAttempt: Sendable {
    private struct State {
        var channels: [any Channel] = []
        var isDropped = false
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
