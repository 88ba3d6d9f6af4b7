// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// `PusherClientConfiguration.notificationBuffering`: a notification consumer that falls behind loses
/// nothing by default; the client stops reading until it catches up.
@Suite("Notification buffering", .timeLimit(.minutes(1)))
struct NotificationBufferingTests {
    /// A watchlist message with one online user.
    static func online(_ index: Int) -> String {
        #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"online\",\"user_ids\":[\"u"#
            + "\(index)" + #"\"]}]}"}"#
    }

    @Test("a watchlist consumer 1,500 changes behind gets every one of them, in order, with the defaults")
    func slowWatchlistConsumerLosesNothing() async throws {
        try await withHarness { harness in
            var watchlist = harness.client.watchlistEvents.makeAsyncIterator()
            var news = harness.client.events(on: "news").makeAsyncIterator()
            await harness.server.waitForSubscribers(of: "news")
            for index in 0..<1500 { await harness.server.send(raw: Self.online(index)) }
            // The event after them arrives once every change before it was handed over.
            await harness.server.trigger(channel: "news", event: "after", data: "x")
            let after = try await news.next()
            #expect(after?.name == "after")
            var received: [String] = []
            while received.count < 1500, let event = await watchlist.next() { received.append(event.userID) }
            let inOrder = received == (0..<1500).map { "u\($0)" }
            #expect(inOrder, "\(received.count) received, the first \(received.first ?? "none")")
        }
    }

    @Test("with a small limit, reading pauses while the consumer is behind and resumes once it caught up")
    func behindPausesReading() async throws {
        let small = BufferingPolicy(limit: 4, whenFull: .pauseReading)
        try await withHarness(options: { $0.notificationBuffering = small }) { harness in
            var watchlist = harness.client.watchlistEvents.makeAsyncIterator()
            var news = harness.client.events(on: "news").makeAsyncIterator()
            await harness.server.waitForSubscribers(of: "news")
            for index in 0..<50 { await harness.server.send(raw: Self.online(index)) }
            await FlowControlTests.waitUntilReadingPaused(harness.client)
            await harness.server.trigger(channel: "news", event: "after", data: "x")
            var received: [String] = []
            while received.count < 50, let event = await watchlist.next() { received.append(event.userID) }
            let inOrder = received == (0..<50).map { "u\($0)" }
            #expect(inOrder, "\(received.count) received, the first \(received.first ?? "none")")
            let after = try await news.next()
            #expect(after?.name == "after")
        }
    }
}
