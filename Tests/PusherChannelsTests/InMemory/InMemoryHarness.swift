// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// A client on an in-memory transport and a virtual clock: no sockets, no real time.
struct InMemoryHarness {
    let transport: InMemoryTransport
    let client: PusherClient
    let clock: VirtualClock

    /// A client (not running yet) on a new in-memory transport and virtual clock, with the test
    /// options (`pusher.invalid:443`, no jitter) changed by `configure`.
    init(configuration configure: (inout PusherClientConfiguration) -> Void = { _ in }) {
        var options = PusherClientConfiguration(host: "pusher.invalid", port: 443, useTLS: true)
        options.backoff.jitter = 0
        configure(&options)
        self.clock = VirtualClock()
        self.transport = InMemoryTransport()
        self.client = PusherClient(
            key: "app-key", configuration: options, clock: self.clock, logger: nil, transport: self.transport)
    }

    /// The next connection, established with `socketID`.
    func established(socketID: String = "1.1") async -> InMemoryPeer {
        let peer = await self.transport.nextConnection()
        peer.establish(socketID: socketID)
        return peer
    }
}

func withInMemoryClient(
    configuration configure: (inout PusherClientConfiguration) -> Void = { _ in },
    _ body: (InMemoryHarness) async throws -> Void
) async throws {
    let harness = InMemoryHarness(configuration: configure)
    try await withRunningClient(harness.client) { _ in try await body(harness) }
}
