// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Client events", .timeLimit(.minutes(1)))
struct ClientEventTests {
    static let secret = "client-event-secret"

    @Test("trigger refuses names without client-, public and encrypted channels, and channels nobody iterates")
    func validation() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        try await withHarness(
            server: server, options: { $0.authorizer = .signing(key: server.appKey, secret: Self.secret) }
        ) { harness in
            for (event, channel) in [
                ("typing", "private-a"), ("client-typing", "public-a"), ("client-typing", "private-encrypted-a"),
                ("client-typing", "private-nobody"),
            ] {
                await #expect {
                    try await harness.client.trigger(event, on: channel, data: "{}")
                } throws: { error in
                    (error as? PusherError)?.code == .clientEventRejected
                }
            }
        }
    }

    @Test("events triggered before the subscription succeeds wait and go out in order after it")
    func queuedUntilSubscribed() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        let script = AuthorizerScript(key: server.appKey, secret: Self.secret)
        let authorizer = await script.authorizer
        try await withHarness(server: server, options: { $0.authorizer = authorizer }) { harness in
            await script.hold(1)
            let consumer = Task { try await collect(harness.client.events(on: "private-chat"), count: 1) }
            await script.waitForRequests(1)
            for index in 1...3 {
                try await harness.client.trigger("client-note", on: "private-chat", data: #"{"n":\#(index)}"#)
            }
            #expect(await harness.server.snapshot.messages(named: "client-note").isEmpty)
            await script.release(1)
            let sent = await harness.server.waitForMessages(named: "client-note", count: 3)
            #expect(
                sent.map(\.text)
                    == (1...3).map { #"{"event":"client-note","channel":"private-chat","data":{"n":\#($0)}}"# })
            let order = await harness.server.snapshot.connections[0].received.compactMap(\.event)
            #expect(order.firstIndex(of: "pusher:subscribe")! < order.firstIndex(of: "client-note")!)
            consumer.cancel()
        }
    }

    @Test("client events reach the other members with the sender's user_id, not the sender")
    func relayedWithUserID() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: PresenceTests.secret)) { server in
            let alice = server.inMemoryClient(
                configuration: PresenceTests.options(for: server, user: "alice", name: "Alice"),
                clock: VirtualClock())
            let bob = server.inMemoryClient(
                configuration: PresenceTests.options(for: server, user: "bob", name: "Bob"),
                clock: VirtualClock())
            try await withRunningClient(alice) { alice in
                try await withRunningClient(bob) { bob in
                    async let aliceEvents = collect(alice.events(on: "presence-room"), count: 1)
                    async let bobEvents = collect(bob.events(on: "presence-room"), count: 1)
                    await server.waitForSubscribers(of: "presence-room", count: 2)
                    try await alice.trigger("client-typing", on: "presence-room", data: "yes")
                    let received = try await bobEvents
                    #expect(
                        received == [
                            ChannelEvent(channel: "presence-room", name: "client-typing", data: "yes", userID: "alice")
                        ])
                    await server.trigger(channel: "presence-room", event: "server-note", data: "")
                    let aliceReceived = try await aliceEvents
                    #expect(aliceReceived.map(\.name) == ["server-note"])
                }
            }
        }
    }

    @Test("a local rate limit (10 per second by default) paces client events on the clock")
    func rateLimited() async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        try await withHarness(
            server: server, options: { $0.authorizer = .signing(key: server.appKey, secret: Self.secret) }
        ) { harness in
            var signals = harness.client.subscriptionEvents(on: "private-feed").makeAsyncIterator()
            let consumer = Task { for try await _ in harness.client.events(on: "private-feed") {} }
            _ = await signals.next()
            for index in 1...15 {
                try await harness.client.trigger("client-tick", on: "private-feed", data: "\(index)")
            }
            await harness.server.waitForMessages(named: "client-tick", count: 10)
            // One task sleeps until the earliest of the client's timers: the pacing, then the activity timer.
            await harness.clock.waitForDeadlines([.seconds(1)])
            #expect(await harness.client.scheduledTimers.map(\.deadline) == [.seconds(1), .seconds(120)])
            try await LivenessTests.waitUntilClientProcessed(harness)
            #expect(await harness.server.snapshot.messages(named: "client-tick").count == 10)
            harness.clock.advance(by: .seconds(1))
            let all = await harness.server.waitForMessages(named: "client-tick", count: 15)
            #expect(all.compactMap { $0.message?.data } == (1...15).map { "\($0)" })
            consumer.cancel()
        }
    }
}

extension ClientEventTests {
    /// A client that sends one client event a second and queues one more, with a consumer of
    /// `private-chat` (subscribed) that `body` may cancel.
    static func withOneEventQueue(
        _ body: (Harness, Task<[ChannelEvent], any Error>) async throws -> Void
    ) async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        try await withHarness(
            server: server,
            options: {
                $0.authorizer = .signing(key: server.appKey, secret: Self.secret)
                $0.clientEventRateLimit = 1
                $0.clientEventQueueLimit = 1
            }
        ) { harness in
            let consumer = Task { try await collect(harness.client.events(on: "private-chat"), count: 1) }
            await harness.server.waitForSubscribers(of: "private-chat")
            try await body(harness, consumer)
            consumer.cancel()
        }
    }

    @Test("triggerWaitingForRoom waits while the queue is full and sends every event in order, at the rate limit")
    func waitingForRoom() async throws {
        try await Self.withOneEventQueue { harness, _ in
            let producer = Task {
                for index in 1...4 {
                    try await harness.client.triggerWaitingForRoom(
                        "client-note", on: "private-chat", data: #"{"n":\#(index)}"#)
                }
            }
            // 1 goes at once, 2 waits for the rate limit, 3 waits for room: the producer is held up.
            _ = await harness.server.waitForMessages(named: "client-note", count: 1)
            while await !harness.client.isWaitingForClientEventRoom { await Task.yield() }
            #expect(await harness.server.snapshot.messages(named: "client-note").count == 1)
            // One second each: 2, 3 and 4 go out, one a second.
            for sent in 2...4 {
                await harness.clock.advanceToNextDeadline()
                _ = await harness.server.waitForMessages(named: "client-note", count: sent)
            }
            try await producer.value
            let sent = await harness.server.snapshot.messages(named: "client-note").map(\.text)
            #expect(sent == (1...4).map { #"{"event":"client-note","channel":"private-chat","data":{"n":\#($0)}}"# })
        }
    }

    @Test("triggerWaitingForRoom throws at once for an event that can never go, and on cancellation while it waits")
    func waitingForRoomFailures() async throws {
        try await Self.withOneEventQueue { harness, consumer in
            try await harness.client.triggerWaitingForRoom("client-note", on: "private-chat", data: "1")
            try await harness.client.triggerWaitingForRoom("client-note", on: "private-chat", data: "2")
            // The queue is full now, but these can never go: they are refused at once.
            for (event, channel) in [("note", "private-chat"), ("client-note", "public-chat")] {
                await #expect {
                    try await harness.client.triggerWaitingForRoom(event, on: channel, data: "x")
                } throws: { error in
                    (error as? PusherError)?.code == .clientEventRejected
                }
            }
            let waiting = Task {
                try await harness.client.triggerWaitingForRoom("client-note", on: "private-chat", data: "3")
            }
            // Nothing gives room (time stands still): cancelling the wait ends it.
            while await !harness.client.isWaitingForClientEventRoom { await Task.yield() }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            // Waiting again; the channel's last consumer leaves meanwhile: the event can never go.
            let orphan = Task {
                try await harness.client.triggerWaitingForRoom("client-note", on: "private-chat", data: "4")
            }
            while await !harness.client.isWaitingForClientEventRoom { await Task.yield() }
            consumer.cancel()
            await #expect {
                try await orphan.value
            } throws: { error in
                (error as? PusherError)?.code == .clientEventRejected
            }
        }
    }
}
