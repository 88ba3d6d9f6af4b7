// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Slow consumers", .timeLimit(.minutes(1)))
struct BufferingTests {
    /// A consumer with a 2-event buffer takes event 1, stalls while events 2–5 arrive, then reads on.
    /// A second consumer on another channel proves every event reached the client before it resumes.
    @Test(
        "a stalled consumer gets what its policy keeps; other consumers are not held up",
        arguments: [
            (BufferingPolicy.WhenFull.fail, ["1", "2", "3"], true),
            (.dropOldest, ["1", "4", "5"], false),
            (.dropNewest, ["1", "2", "3"], false),
        ]
    )
    func stalledConsumer(whenFull: BufferingPolicy.WhenFull, expected: [String], fails: Bool) async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = Self.stalledConsumer(
                harness.client.events(on: "feed", buffering: BufferingPolicy(limit: 2, whenFull: whenFull)),
                gate: gate,
                limit: fails ? Int.max : expected.count
            )
            await harness.server.waitForSubscribers(of: "feed")
            async let marker = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...5 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            _ = try await marker  // frames are handled in order: every tick was handed over before this
            open.yield()
            let result = await slow
            #expect(result.data == expected)
            #expect((result.error?.code == .consumerTooSlow) == fails)
            if fails {
                // The failed consumer is gone, so its channel was unsubscribed.
                await harness.server.waitForMessages(named: "pusher:unsubscribe")
            }
        }
    }

    /// Takes one event, waits for `gate`, then reads until `limit` events or an error.
    static func stalledConsumer(
        _ sequence: ChannelSequence<ChannelEvent>,
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
}
