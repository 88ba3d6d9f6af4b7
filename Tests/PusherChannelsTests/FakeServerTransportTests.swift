// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// The fake server's two ways in: a loopback WebSocket and the in-memory ``FakePusherServer/transport``.
/// Both reach the same protocol logic and the same state.
@Suite("Fake server: loopback and in-memory connections", .timeLimit(.minutes(1)))
struct FakeServerTransportTests {
    @Test("one server serves a loopback client and an in-memory client alike: presence, client events, triggers")
    func bothTransports() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: PresenceTests.secret)) { server in
            let loopback = PusherClient(
                key: server.appKey, configuration: PresenceTests.options(for: server, user: "alice", name: "Alice"),
                clock: VirtualClock())
            let inMemory = server.inMemoryClient(
                configuration: PresenceTests.options(for: server, user: "bob", name: "Bob"), clock: VirtualClock())
            try await withRunningClient(loopback) { alice in
                try await withRunningClient(inMemory) { bob in
                    async let aliceEvents = collect(alice.events(on: "presence-room"), count: 1)
                    async let bobEvents = collect(bob.events(on: "presence-room"), count: 1)
                    await server.waitForSubscribers(of: "presence-room", count: 2)
                    try await bob.trigger("client-typing", on: "presence-room", data: "yes")
                    let aliceReceived = try await aliceEvents
                    #expect(
                        aliceReceived == [
                            ChannelEvent(channel: "presence-room", name: "client-typing", data: "yes", userID: "bob")
                        ])
                    await server.trigger(channel: "presence-room", event: "note", data: "")
                    let bobReceived = try await bobEvents
                    #expect(bobReceived.map(\.name) == ["note"])
                    let uris = await server.snapshot.connections.map(\.requestURI)
                    #expect(uris.count == 2)
                    #expect(uris.allSatisfy { $0.hasPrefix("/app/\(server.appKey)?protocol=7&") })
                }
            }
        }
    }

    @Test("in memory, a refused connection fails as a refused upgrade does, and is counted")
    func refusedInMemory() async throws {
        try await FakePusherServer.withRunning { server in
            server.refuseConnections(true)
            let client = server.inMemoryClient(clock: VirtualClock())
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                let reconnecting = await states.collect { $0.isReconnecting }.last
                guard case .reconnecting(_, _, let cause)? = reconnecting else {
                    Issue.record("expected a backoff after the refusal, got \(String(describing: reconnecting))")
                    return
                }
                #expect(cause.code == .transportFailed)
                #expect(cause.message.contains("HTTP 503"))
                let snapshot = await server.snapshot
                #expect(snapshot.refusedConnections == 1)
                #expect(snapshot.connections.isEmpty)
            }
        }
    }
}
