// SPDX-License-Identifier: MIT

import Logging
import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import Testing

/// The default buffering policy, `pauseReading`: a consumer that falls behind stops the client
/// reading until it catches up, so nothing is lost and the other channels wait.
@Suite("Flow control", .timeLimit(.minutes(1)))
struct FlowControlTests {
    /// Polls the client (an actor call each time, no sleeping) until its reader waits for a consumer.
    static func waitUntilReadingPaused(_ client: PusherClient) async {
        while await !client.isReadingPaused { await Task.yield() }
    }

    /// Returns once the socket reads again. The gate resumes a paused socket on the transport's own
    /// thread (an event loop, or the in-memory connection's task), a moment after the consumer that
    /// held it caught up; a socket that never resumes runs into the suite's time limit.
    static func waitUntilReadingResumed(_ client: PusherClient) async {
        while await client.isReadingPaused { await Task.yield() }
    }

    /// The default policy with a small limit.
    static func buffering(limit: Int) -> BufferingPolicy {
        var buffering = BufferingPolicy.default
        buffering.limit = limit
        return buffering
    }

    /// Counts the events of `events`; after the first, waits for `gate` and cancels its own task.
    static func countCancellingAfterFirst<Events: AsyncSequence>(_ events: Events, gate: AsyncStream<Void>)
        async throws -> Int
    {
        var count = 0
        for try await _ in events {
            count += 1
            if count == 1 {
                for await _ in gate { break }
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        return count
    }

    /// Runs `loop` (given the gate) in a task consuming "feed"; once it has its first event, fills
    /// its buffer with 600 more, opens the gate, and returns what the loop returns.
    static func backlogAtCancellation(
        _ harness: Harness, loop: @escaping @Sendable (AsyncStream<Void>) async throws -> Int
    ) async throws -> Int {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task { try await loop(gate) }
        await harness.server.waitForSubscribers(of: "feed")
        let marker = Task { for try await _ in harness.client.events(on: "marker") { return } }
        await harness.server.waitForSubscribers(of: "marker")
        for index in 0...600 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
        // Sent after them on the same socket: once it arrives, they are all in the buffer.
        await harness.server.trigger(channel: "marker", event: "done", data: "")
        try await marker.value
        open.yield()
        return try await consumer.value
    }

    @Test("a cancelled loop ends within one run of events although its buffer still holds hundreds")
    func cancelledLoopEnds() async throws {
        try await withHarness { harness in
            let count = try await Self.backlogAtCancellation(harness) { gate in
                try await Self.countCancellingAfterFirst(harness.client.events(on: "feed"), gate: gate)
            }
            // The first event, and at most the rest of the run taken with it.
            #expect(count >= 1)
            #expect(count <= 128)
        }
    }

    @Test("a cancelled loop over withSubscription ends at once although its buffer still holds hundreds")
    func cancelledSubscriptionLoopEnds() async throws {
        try await withHarness { harness in
            let count = try await Self.backlogAtCancellation(harness) { gate in
                try await harness.client.withSubscription(to: "feed") { events in
                    try await Self.countCancellingAfterFirst(events, gate: gate)
                }
            }
            #expect(count == 1)
        }
    }

    @Test(
        "a stalled consumer loses nothing; another channel's event waits until it catches up",
        arguments: [false, true]
    )
    func nothingLost(loopback: Bool) async throws {
        try await withHarness(loopback: loopback) { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = BufferingTests.stalledConsumer(
                harness.client.events(on: "feed", buffering: Self.buffering(limit: 2)), gate: gate, limit: 20)
            await harness.server.waitForSubscribers(of: "feed")
            // What the other channel's consumer got, as it gets it.
            let markers = NIOLockedValueBox<[String]>([])
            let marker = Task {
                for try await event in harness.client.events(on: "marker") {
                    markers.withLockedValue { $0.append(event.name) }
                    return
                }
            }
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...20 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            // Sent after the pause: nothing the client has not read reaches a consumer.
            #expect(await harness.client.isReadingPaused)
            #expect(markers.withLockedValue { $0 }.isEmpty)
            open.yield()
            let result = await slow
            #expect(result.data == (1...20).map(String.init))
            #expect(result.error == nil)
            try await marker.value
            #expect(markers.withLockedValue { $0 } == ["done"])
            await Self.waitUntilReadingResumed(harness.client)
            #expect(await !harness.client.isReadingPaused)
            let socketID = await harness.server.snapshot.connections[0].socketID
            #expect(await harness.client.state == .connected(socketID: socketID))
        }
    }

    @Test("a consumer that leaves while it holds reading up lets the others go on")
    func leavingConsumerResumesReading() async throws {
        try await withHarness { harness in
            let (gate, _) = AsyncStream.makeStream(of: Void.self)
            let slow = Task {
                await BufferingTests.stalledConsumer(
                    harness.client.events(on: "feed", buffering: Self.buffering(limit: 1)), gate: gate, limit: .max)
            }
            await harness.server.waitForSubscribers(of: "feed")
            async let marker = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...5 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            // The stalled consumer's task is cancelled: it leaves, and reading goes on.
            slow.cancel()
            let names = try await marker.map(\.name)
            #expect(names == ["done"])
            #expect(await !harness.client.isReadingPaused)
            _ = await harness.server.waitForMessages(named: "pusher:unsubscribe")
        }
    }

    @Test("disconnect() while a consumer holds reading up closes at once: the close is read, not timed out")
    func disconnectWhilePaused() async throws {
        // Over a socket: only there does the server's answer wait in the socket behind the events.
        try await withHarness(loopback: true) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let (gate, _) = AsyncStream.makeStream(of: Void.self)
            let slow = Task {
                await BufferingTests.stalledConsumer(
                    harness.client.events(on: "feed", buffering: Self.buffering(limit: 1)), gate: gate, limit: .max)
            }
            await harness.server.waitForSubscribers(of: "feed")
            for index in 1...5 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            // Virtual time stands still: only reading the server's close ends the connection.
            await harness.client.disconnect()
            while let state = await states.next(), state != .disconnected {}
            // The close completed: its 5 s timeout is no longer scheduled. Had the paused reader
            // never read the server's answer, it would stay scheduled (virtual time stands still).
            while await harness.client.scheduledTimers.contains(where: {
                if case .close = $0.timer { true } else { false }
            }) {
                await Task.yield()
            }
            #expect(await harness.client.state == .disconnected)
            slow.cancel()
        }
    }

    @Test("while a consumer holds reading up, pings keep the server content and no timeout drops the connection")
    func livenessWhilePaused() async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = BufferingTests.stalledConsumer(
                harness.client.events(on: "feed", buffering: Self.buffering(limit: 1)), gate: gate, limit: 5)
            await harness.server.waitForSubscribers(of: "feed")
            for index in 1...5 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            // Ten minutes of the client's time without reading: every activity timeout (120 s) a
            // ping goes out and the timer is scheduled again; no pong is awaited, nothing drops.
            for step in 1...5 {
                await harness.client.waitForEarliestDeadline(.seconds(120 * step))
                harness.clock.advance(by: .seconds(120))
            }
            await harness.client.waitForEarliestDeadline(.seconds(720))
            #expect(await harness.client.isReadingPaused)
            _ = await harness.server.waitForMessages(named: "pusher:ping", count: 5)
            open.yield()
            let result = await slow
            #expect(result.data == ["1", "2", "3", "4", "5"])
            #expect(await harness.server.snapshot.connections.count == 1)
            let socketID = await harness.server.snapshot.connections[0].socketID
            #expect(await harness.client.state == .connected(socketID: socketID))
        }
    }

    @Test("a consumer that makes the client pause reading logs a notice naming its channel")
    func pauseIsLogged() async throws {
        let records = LogRecords()
        try await FakePusherServer.withRunning { server in
            let client = server.inMemoryClient(clock: VirtualClock(), logger: ClientLoggingTests.logger(records))
            try await withRunningClient(client) { client in
                let (gate, open) = AsyncStream.makeStream(of: Void.self)
                async let slow = BufferingTests.stalledConsumer(
                    client.events(on: "feed", buffering: Self.buffering(limit: 1)), gate: gate, limit: 3)
                await server.waitForSubscribers(of: "feed")
                for index in 1...3 { await server.trigger(channel: "feed", event: "tick", data: "\(index)") }
                await Self.waitUntilReadingPaused(client)
                open.yield()
                #expect(await slow.data == ["1", "2", "3"])
            }
        }
        let notices = ClientLoggingTests.records(
            records, .notice, "a consumer is behind: reading from the socket paused until it catches up")
        #expect(notices.map { $0.metadata["pusher.channel"] } == ["feed"])
    }

    @Test("a presence consumer over its limit pauses reading too and loses no membership change")
    func presencePauses() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: PresenceTests.secret)) { server in
            var options = PresenceTests.options(for: server, user: "alice", name: "Alice")
            options.buffering.limit = 1
            let alice = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(alice) { alice in
                var changes = alice.presence(on: "presence-room").makeAsyncIterator()
                guard case .snapshot? = try await changes.next() else {
                    Issue.record("expected a snapshot first")
                    return
                }
                // Three others join while Alice's loop does not take their changes.
                let others = ["bob", "carol", "dave"].map { user in
                    let client = server.inMemoryClient(
                        configuration: PresenceTests.options(for: server, user: user, name: user), clock: VirtualClock()
                    )
                    return (
                        client,
                        Task {
                            try await withRunningClient(client) { client in
                                for try await _ in client.presence(on: "presence-room") {}
                            }
                        }
                    )
                }
                await server.waitForSubscribers(of: "presence-room", count: 4)
                await Self.waitUntilReadingPaused(alice)
                var added: [String] = []
                while added.count < 3, let change = try await changes.next() {
                    if case .added(let member) = change { added.append(member.userID) }
                }
                // They join concurrently, in any order.
                #expect(added.sorted() == ["bob", "carol", "dave"])
                #expect(await alice.members(of: "presence-room")?.count == 4)
                for (_, task) in others { task.cancel() }
            }
        }
    }
}
