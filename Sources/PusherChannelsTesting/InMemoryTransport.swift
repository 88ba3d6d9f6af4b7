// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore

/// A transport without sockets, for tests of the client's behaviour: each connection the client
/// opens becomes an ``InMemoryPeer`` the test plays the server with (``nextConnection()``).
package final class InMemoryTransport: PusherTransport {
    private let peers = ArrivalLog<InMemoryPeer>()
    private let refusals = NIOLockedValueBox<[any Error]>([])

    package init() {}

    /// Every connection the client has opened so far, in order.
    package var connections: [InMemoryPeer] { self.peers.all }

    /// The next connection the client opens (in order; waits until it does).
    package func nextConnection() async -> InMemoryPeer {
        await self.peers.next()
    }

    /// The next connection attempt fails with `error` (as a refused TCP connection would).
    package func refuseNextConnection(with error: any Error) {
        self.refusals.withLockedValue { $0.append(error) }
    }

    package func connect(
        to url: String, configuration: TransportConfiguration, handler: any TransportHandler
    ) async throws -> TransportClose? {
        if let refusal = self.refusals.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) { throw refusal }
        let peer = InMemoryPeer(url: url, outboundBufferLimit: configuration.outboundBufferLimit)
        handler.attemptStarted(peer.clientSide)
        self.peers.append(peer)
        await withTaskCancellationHandler {
            await peer.run(handler)
        } onCancel: {
            peer.abort()
        }
        if let overflow = peer.overflow { throw overflow }
        return peer.closeFrame
    }
}
