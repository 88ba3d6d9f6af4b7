// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Slow consumers", .timeLimit(.minutes(1)))
struct BufferingTests {
    /// A consumer that takes one event, stalls until `gate` opens, then reads the rest.
    static func stalledConsumer(
        _ sequence: ChannelEventSequence,
        gate: AsyncStream<Void>,
        limit: Int
    ) async -> (data: [String], error: PusherError?) {
        var iterator = sequence.makeAsyncIterator()
        var data: [String] = []
        do {
            guard let first = try await iterator.next() else { return (data, nil) }
            data.append(first.data)
            for await _ in gate { break }
            while data.count < limit, let event = try await iterator.next() { data.append(event.data) }
            return (data, nil)
        } catch {
            return (data, error)
        }
    }

    @Test("the default policy fails a stalled consumer after its buffer; other consumers get everything")
    func failPolicy() async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = Self.stalledConsumer(
                harness.client.events(on: "fast-feed", buffering: BufferingPolicy(limit: 2, whenFull: .fail)),
                gate: gate,
                limit: 10
            )
            await harness.server.waitForSubscribers(of: "fast-feed")
            async let healthy = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...5 { await harness.server.trigger(channel: "fast-feed", event: "tick", data: "\(index)") }
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            _ = try await healthy  // every tick has been handed to the slow consumer by now
            open.yield()
            let result = await slow
            #expect(result.data == ["1", "2", "3"])
            #expect(result.error?.code == .consumerTooSlow)
            // The failed consumer is gone, so the channel was unsubscribed.
            await harness.server.waitForMessages(named: "pusher:unsubscribe")
        }
    }

    @Test("dropOldest keeps the newest events and the consumer goes on")
    func dropOldest() async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = Self.stalledConsumer(
                harness.client.events(on: "prices", buffering: BufferingPolicy(limit: 2, whenFull: .dropOldest)),
                gate: gate,
                limit: 3
            )
            await harness.server.waitForSubscribers(of: "prices")
            async let healthy = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...5 { await harness.server.trigger(channel: "prices", event: "tick", data: "\(index)") }
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            _ = try await healthy
            open.yield()
            let result = await slow
            #expect(result.data == ["1", "4", "5"])
            #expect(result.error == nil)
        }
    }

    @Test("dropNewest keeps the backlog and discards what does not fit")
    func dropNewest() async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = Self.stalledConsumer(
                harness.client.events(on: "log", buffering: BufferingPolicy(limit: 2, whenFull: .dropNewest)),
                gate: gate,
                limit: 3
            )
            await harness.server.waitForSubscribers(of: "log")
            async let healthy = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...5 { await harness.server.trigger(channel: "log", event: "line", data: "\(index)") }
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            _ = try await healthy
            open.yield()
            let result = await slow
            #expect(result.data == ["1", "2", "3"])
            #expect(result.error == nil)
        }
    }
}
