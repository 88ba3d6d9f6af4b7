// SPDX-License-Identifier: MIT

// Written as a user's test: public API only. The test targets share this package, so `package`
// symbols would compile here too; keep to what users can call (no `@testable`, no `package`
// symbols, no helpers of this test target). scripts/run-tests type-checks this file as a module
// of another package would, so a `package` symbol slipping in fails there.

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("In memory, as a user's test", .timeLimit(.minutes(1)))
struct PublicInMemoryTests {
    static let secret = "in-memory-secret"

    /// Options whose authorizer signs in process, as `name` on presence channels: no socket at all.
    static func options(for server: FakePusherServer, user: String) -> PusherClientConfiguration {
        var options = server.clientConfiguration()
        options.backoff.jitter = 0
        options.authorizer = .signing(key: server.appKey, secret: Self.secret) { _ in
            PresenceMember(userID: user)
        }
        return options
    }

    @Test("subscribes, receives a triggered event, sees presence, and unsubscribes on cancellation")
    func subscribeReceivePresenceCancel() async throws {
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: Self.secret)) { server in
            let alice = server.inMemoryClient(
                configuration: Self.options(for: server, user: "alice"), clock: VirtualClock())
            try await withRunningClient(alice) { alice in
                // A triggered event reaches the consumer.
                try await alice.withSubscription(to: "private-prices") { prices in
                    await server.trigger(channel: "private-prices", event: "new-price", data: #"{"price":1}"#)
                    var iterator = prices.makeAsyncIterator()
                    let event = try await iterator.next()
                    #expect(event?.name == "new-price")
                    #expect(event?.data == #"{"price":1}"#)
                }

                // Presence: a snapshot with me first, then a member joining from a second client.
                var changes = alice.presence(on: "presence-room").makeAsyncIterator()
                let first = try await changes.next()
                guard case .snapshot(let snapshot)? = first else {
                    Issue.record("expected a snapshot first, got \(String(describing: first))")
                    return
                }
                #expect(snapshot.members.map(\.userID) == ["alice"])
                let bob = server.inMemoryClient(
                    configuration: Self.options(for: server, user: "bob"), clock: VirtualClock())
                try await withRunningClient(bob) { bob in
                    var bobChanges = bob.presence(on: "presence-room").makeAsyncIterator()
                    _ = try await bobChanges.next()
                    let joined = try await changes.next()
                    #expect(joined == .added(PresenceMember(userID: "bob")))
                }
                let left = try await changes.next()
                #expect(left == .removed(PresenceMember(userID: "bob")))

                // Cancelling the task that iterates a channel unsubscribes it.
                let following = Task {
                    for try await _ in alice.events(on: "news") {}
                }
                await server.waitForSubscribers(of: "news")
                following.cancel()
                await server.waitUntil { $0.subscribers(of: "news") == 0 }
                let unsubscribes = await server.snapshot.messages(named: "pusher:unsubscribe").map(\.text)
                #expect(unsubscribes.contains(#"{"event":"pusher:unsubscribe","data":{"channel":"news"}}"#))
                #expect(await server.snapshot.connections.count == 2, "alice's and bob's connections")
            }
        }
    }

    @Test("a 4100 close makes the client wait exactly 1 s of virtual time, then reconnect in memory")
    func reconnectsInVirtualTime() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            var options = server.clientConfiguration()
            options.backoff.jitter = 0
            let client = server.inMemoryClient(configuration: options, clock: clock)
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                await server.close(code: 4100, reason: "over capacity")
                await clock.waitForDeadlines([.seconds(1)])
                clock.advance(by: .milliseconds(999))
                #expect(await server.snapshot.connections.count == 1)
                clock.advance(by: .milliseconds(1))
                await server.waitForConnections(count: 2)
                while let state = await states.next(), !state.isConnected {}
                #expect(await client.state.isConnected)
            }
        }
    }

    @Test("a client made with init(key:configuration:clock:logger:transport:) and the server's clientTransport")
    func clientTransport() async throws {
        try await FakePusherServer.withRunning { server in
            let client = PusherClient(key: server.appKey, clock: VirtualClock(), transport: server.clientTransport)
            try await withRunningClient(client) { client in
                try await client.withSubscription(to: "ticker") { ticker in
                    await server.trigger(channel: "ticker", event: "tick", data: "1")
                    var iterator = ticker.makeAsyncIterator()
                    let event = try await iterator.next()
                    #expect(event?.data == "1")
                }
            }
        }
    }

    @Test("upgrade headers reach the server; switchEndpoint reconnects and the same sequence goes on")
    func headersAndSwitchEndpoint() async throws {
        try await FakePusherServer.withRunning { server in
            var options = server.clientConfiguration()
            options.headers = ["Origin": "https://app.example"]
            options.headersProvider = { ["Authorization": "Bearer fresh"] }
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                var events = client.events(on: "news").makeAsyncIterator()
                await server.waitForSubscribers(of: "news")
                let headers = await server.snapshot.connections.first?.requestHeaders
                #expect(headers?["origin"] == "https://app.example")
                #expect(headers?["authorization"] == "Bearer fresh")
                // In memory every endpoint reaches this server: the switch is a new connection to it.
                var elsewhere = server.clientConfiguration().endpoint
                elsewhere.path = "/other"
                try await client.switchEndpoint(to: elsewhere)
                #expect(await client.currentEndpoint == elsewhere)
                // The new connection (the second) has subscribed again.
                await server.waitUntil {
                    $0.connections.count == 2 && $0.connections[1].isOpen
                        && $0.connections[1].subscriptions.contains("news")
                }
                #expect(await server.snapshot.connections.last?.requestURI.hasPrefix("/other/app/") == true)
                await server.trigger(channel: "news", event: "flash", data: "after the switch")
                #expect(try await events.next()?.data == "after the switch")
            }
        }
    }

    /// Counts authorizer calls, so that the first one can refuse.
    actor Attempts {
        private var count = 0
        func next() -> Int {
            self.count += 1
            return self.count
        }
    }

    @Test("under subscriptionRetry a refused subscription is retried after the backoff and its sequence keeps going")
    func subscriptionRetry() async throws {
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: Self.secret)) { server in
            let attempts = Attempts()
            var options = server.clientConfiguration()
            options.authorizer = ChannelAuthorizer { socketID, channel in
                if await attempts.next() == 1 { throw PusherError(.authorizationFailed, "not yet", channel: channel) }
                return PusherSignature.channelAuthorization(
                    key: server.appKey, secret: Self.secret, socketID: socketID, channel: channel)
            }
            options.subscriptionRetry = .backoff(Backoff(initialDelay: .seconds(1), jitter: 0))
            let clock = VirtualClock()
            try await withRunningClient(server.inMemoryClient(configuration: options, clock: clock)) { client in
                var outcomes = client.subscriptionEvents(on: "private-orders").makeAsyncIterator()
                var orders = client.events(on: "private-orders").makeAsyncIterator()
                let refused = await outcomes.next()
                guard case .failed(_, let error)? = refused else {
                    Issue.record("expected a refusal first, got \(String(describing: refused))")
                    return
                }
                #expect(error.message == "not yet")
                await clock.waitForDeadlines([.seconds(1)])
                clock.advance(by: .seconds(1))
                let confirmed = await outcomes.next()
                #expect(confirmed == .succeeded(channel: "private-orders", isResubscription: false))
                #expect(confirmed?.missedWindow == nil)
                await server.trigger(channel: "private-orders", event: "created", data: "{}")
                let created = try await orders.next()
                #expect(created?.name == "created")
            }
        }
    }
}
