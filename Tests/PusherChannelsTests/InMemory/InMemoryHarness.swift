// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// A client on an in-memory transport and a virtual clock: no sockets, no real time.
struct InMemoryHarness {
    let transport: InMemoryTransport
    let client: PusherClient
    let clock: VirtualClock

    /// The next connection, established with `socketID`.
    func established(socketID: String = "1.1") async -> InMemoryPeer {
        let peer = await self.transport.nextConnection()
        peer.establish(socketID: socketID)
        return peer
    }
}

func withInMemoryClient(
    options configure: (inout PusherClientOptions) -> Void = { _ in },
    _ body: (InMemoryHarness) async throws -> Void
) async throws {
    var options = PusherClientOptions(host: "pusher.invalid", port: 443, useTLS: true)
    options.backoff.jitter = 0
    configure(&options)
    let clock = VirtualClock()
    let transport = InMemoryTransport()
    let client = PusherClient(key: "app-key", options: options, clock: clock, logger: nil, transport: transport)
    try await withRunning(client) { client in
        try await body(InMemoryHarness(transport: transport, client: client, clock: clock))
    }
}
