// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore

/// A transport without sockets, for tests of the client's behaviour: each connection the client
/// opens becomes an ``InMemoryPeer`` the test plays the server with (``nextConnection()``).
package final class InMemoryTransport: PusherTransport {
    private struct State {
        var peers: [InMemoryPeer] = []
        var taken = 0
        var waiter: CheckedContinuation<Void, Never>?
        var refusals: [any Error] = []
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Every connection the client has opened so far, in order.
    package var connections: [InMemoryPeer] { self.state.withLockedValue { $0.peers } }

    /// The next connection the client opens (in order; waits until it does).
    package func nextConnection() async -> InMemoryPeer {
        while true {
            let peer = self.state.withLockedValue { state -> InMemoryPeer? in
                guard state.taken < state.peers.count else { return nil }
                state.taken += 1
                return state.peers[state.taken - 1]
            }
            if let peer { return peer }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    guard state.taken >= state.peers.count else { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// The next connection attempt fails with `error` (as a refused TCP connection would).
    package func refuseNextConnection(with error: any Error) {
        self.state.withLockedValue { $0.refusals.append(error) }
    }

    package func connect(
        to url: String,
        configuration: TransportConfiguration,
        session: @Sendable (any TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        let peer = InMemoryPeer(url: url)
        let (refusal, waiter) = self.state.withLockedValue { state -> ((any Error)?, CheckedContinuation<Void, Never>?) in
            if !state.refusals.isEmpty { return (state.refusals.removeFirst(), nil) }
            state.peers.append(peer)
            defer { state.waiter = nil }
            return (nil, state.waiter)
        }
        if let refusal { throw refusal }
        waiter?.resume()
        try await withTaskCancellationHandler {
            try await session(peer.clientSide)
        } onCancel: {
            peer.drop()
        }
        return peer.closeFrame
    }
}
