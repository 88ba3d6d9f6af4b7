// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// `FakePusherServer.withInMemory`: the fake server with no listener, for clients connected in
/// memory. Nothing binds a port; the protocol behaves as on loopback.
@Suite("In-memory fake server", .timeLimit(.minutes(1)))
struct InMemoryServerTests {
    @Test("no port is bound; events, presence and client events flow as on loopback")
    func socketFree() async throws {
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: "in-memory-secret")) { server in
            #expect(server.port == 0)
            var options = server.clientConfiguration()
            options.authorizer = .signing(key: server.appKey, secret: "in-memory-secret") { _ in
                PresenceMember(userID: "u1", userInfo: .object(["name": .string("Ada")]))
            }
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                var prices = client.events(on: "prices").makeAsyncIterator()
                await server.waitForSubscribers(of: "prices")
                await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
                let event = try await prices.next()
                #expect(event?.data == #"{"price":1}"#)

                var changes = client.presence(on: "presence-room").makeAsyncIterator()
                guard case .snapshot(let snapshot)? = try await changes.next() else {
                    Issue.record("expected the roster first")
                    return
                }
                #expect(snapshot.members.map(\.userID) == ["u1"])
            }
            #expect(await server.snapshot.connections.count == 1)
        }
    }

    @Test("many in-memory servers side by side, each with its own clients")
    func sideBySide() async throws {
        try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await FakePusherServer.withInMemory { server in
                        let client = server.inMemoryClient(clock: VirtualClock())
                        return try await withRunningClient(client) { client in
                            var events = client.events(on: "c").makeAsyncIterator()
                            await server.waitForSubscribers(of: "c")
                            await server.trigger(channel: "c", event: "e", data: "\(index)")
                            return try await events.next()?.data
                        }
                    }
                }
            }
            var received: Set<String> = []
            for try await data in group { if let data { received.insert(data) } }
            #expect(received == Set((0..<20).map { "\($0)" }))
        }
    }
}
