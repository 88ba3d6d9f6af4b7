// SPDX-License-Identifier: MIT

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

    @Test(
        "a stalled consumer loses nothing; another channel's event waits until it catches up",
        arguments: [false, true]
    )
    func nothingLost(loopback: Bool) async throws {
        try await withHarness(loopback: loopback) { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            // The default policy, with a small limit.
            var buffering = BufferingPolicy.default
            buffering.limit = 2
            async let slow = BufferingTests.stalledConsumer(
                harness.client.events(on: "feed", buffering: buffering), gate: gate, limit: 20)
            await harness.server.waitForSubscribers(of: "feed")
            async let marker = collect(harness.client.events(on: "marker"), count: 1)
            await harness.server.waitForSubscribers(of: "marker")
            for index in 1...20 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            await harness.server.trigger(channel: "marker", event: "done", data: "")
            #expect(await harness.client.isReadingPaused)
            open.yield()
            let result = await slow
            #expect(result.data == (1...20).map(String.init))
            #expect(result.error == nil)
            let markers = try await marker.map(\.name)
            #expect(markers == ["done"])
            #expect(await !harness.client.isReadingPaused)
            let socketID = await harness.server.snapshot.connections[0].socketID
            #expect(await harness.client.state == .connected(socketID: socketID))
        }
    }

    @Test("while a consumer holds reading up, the activity and pong timeouts do not drop the connection")
    func livenessWhilePaused() async throws {
        try await withHarness { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            var buffering = BufferingPolicy.default
            buffering.limit = 1
            async let slow = BufferingTests.stalledConsumer(
                harness.client.events(on: "feed", buffering: buffering), gate: gate, limit: 5)
            await harness.server.waitForSubscribers(of: "feed")
            for index in 1...5 { await harness.server.trigger(channel: "feed", event: "tick", data: "\(index)") }
            await Self.waitUntilReadingPaused(harness.client)
            // Ten minutes of the client's time without reading: the activity timer (120 s) fires
            // and is only scheduled again, no ping goes out, the connection stays.
            for step in 1...5 {
                await harness.clock.waitForDeadlines([.seconds(120 * step)])
                harness.clock.advance(by: .seconds(120))
            }
            await harness.clock.waitForDeadlines([.seconds(720)])
            #expect(await harness.client.isReadingPaused)
            #expect(await harness.server.snapshot.messages(named: "pusher:ping").isEmpty)
            open.yield()
            let result = await slow
            #expect(result.data == ["1", "2", "3", "4", "5"])
            #expect(await harness.server.snapshot.connections.count == 1)
            let socketID = await harness.server.snapshot.connections[0].socketID
            #expect(await harness.client.state == .connected(socketID: socketID))
        }
    }
}
