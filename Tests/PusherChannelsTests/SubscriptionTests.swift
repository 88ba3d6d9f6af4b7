// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Subscriptions", .timeLimit(.minutes(1)))
struct SubscriptionTests {
    @Test("subscribing while disconnected sends exactly one pusher:subscribe after connecting")
    func subscribeBeforeConnect() async throws {
        try await withHarness(options: { $0.connectsAutomatically = false }) { harness in
            var subscriptions = harness.client.subscriptionEvents(on: "prices").makeAsyncIterator()
            // The consumer is registered (the channel is wanted) when its iterator is made.
            let events = collecting(harness.client.events(on: "prices"), count: 1)
            await harness.client.connect()
            let succeeded = await subscriptions.next()
            #expect(succeeded == .succeeded(channel: "prices", isResubscription: false))
            await harness.server.trigger(channel: "prices", event: "tick", data: "1")
            let eventsResult = try await events.value
            #expect(eventsResult.map(\.data) == ["1"])
            let subscribes = await harness.server.snapshot.messages(named: "pusher:subscribe")
            #expect(subscribes.count == 1)
            #expect(subscribes.first?.text == #"{"event":"pusher:subscribe","data":{"channel":"prices"}}"#)
        }
    }

    @Test("double-encoded, object and plain-text data arrive exactly; decode works on JSON")
    func dataEncodings() async throws {
        struct Price: Decodable, Equatable {
            var symbol: String
            var price: Double
        }
        for encoding in [FakePusherServer.Configuration.DataEncoding.string, .object] {
            try await withHarness(server: .init(dataEncoding: encoding)) { harness in
                async let received = collect(harness.client.events(on: "prices"), count: 3)
                await harness.server.waitForSubscribers(of: "prices")
                await harness.server.trigger(
                    channel: "prices", event: "new-price", data: #"{"symbol":"ACME","price":1.5}"#)
                await harness.server.trigger(channel: "prices", event: "note", data: "plain text, not JSON")
                await harness.server.trigger(channel: "prices", event: "quoted", data: #"{"s":"a\"b\\c \u00e9"}"#)
                let events = try await received
                #expect(events.map(\.name) == ["new-price", "note", "quoted"])
                #expect(events[0].data == #"{"symbol":"ACME","price":1.5}"#)
                #expect(try events[0].decode(Price.self) == Price(symbol: "ACME", price: 1.5))
                #expect(events[1].data == "plain text, not JSON")
                #expect(throws: PusherError.self) { try events[1].decode(Price.self) }
                #expect(events[0].channel == "prices")
                #expect(events[0].userID == nil)
            }
        }
    }

    @Test("two consumers of one channel share one subscription; cancelling one leaves the other")
    func sharedSubscription() async throws {
        try await withHarness { harness in
            let first = collecting(harness.client.events(on: "chat"), count: 3)
            let (progress, report) = AsyncStream.makeStream(of: String.self)
            let secondEvents = IteratorHandoff(harness.client.events(on: "chat").makeAsyncIterator())
            let second = Task {
                var events = secondEvents.take()
                var data: [String] = []
                while let event = try await events.next() {
                    data.append(event.data)
                    report.yield(event.data)
                }
                return data
            }
            await harness.server.waitForSubscribers(of: "chat")
            await harness.server.trigger(channel: "chat", event: "message", data: "a")
            await harness.server.trigger(channel: "chat", event: "other", data: "x")
            var seenBySecond = progress.makeAsyncIterator()
            _ = await seenBySecond.next()
            second.cancel()
            let secondData = try await second.value
            await harness.client.waitForConsumers(on: "chat", count: 1)
            #expect(await harness.server.snapshot.messages(named: "pusher:unsubscribe").isEmpty)
            await harness.server.trigger(channel: "chat", event: "message", data: "b")
            let firstData = try await first.value.map(\.data)
            #expect(firstData == ["a", "x", "b"])
            #expect(secondData.starts(with: ["a"]))
            #expect(!secondData.contains("b"))
            // The first consumer left too: now the channel is unsubscribed, once.
            let unsubscribes = await harness.server.waitForMessages(named: "pusher:unsubscribe")
            #expect(unsubscribes.count == 1)
            #expect(await harness.server.snapshot.messages(named: "pusher:subscribe").count == 1)
        }
    }

    @Test("cancelling the last consumer sends pusher:unsubscribe; later events are dropped")
    func lastConsumerUnsubscribes() async throws {
        try await withHarness { harness in
            let consumer = Task {
                for try await _ in harness.client.events(on: "news") {}
            }
            await harness.server.waitForSubscribers(of: "news")
            consumer.cancel()
            try await consumer.value
            let unsubscribes = await harness.server.waitForMessages(named: "pusher:unsubscribe")
            #expect(unsubscribes.first?.text == #"{"event":"pusher:unsubscribe","data":{"channel":"news"}}"#)
            #expect(await harness.server.snapshot.subscribers(of: "news") == 0)
            // A late event for the channel is dropped; an event on a live channel still arrives.
            async let other = collect(harness.client.allEvents(), count: 1)
            async let live = collect(harness.client.events(on: "live"), count: 1)
            await harness.server.waitForSubscribers(of: "live")
            await harness.server.send(raw: #"{"event":"late","channel":"news","data":"x"}"#)
            await harness.server.trigger(channel: "live", event: "on-time", data: "y")
            let liveResult = try await live
            #expect(liveResult.map(\.name) == ["on-time"])
            let otherResult = try await other
            #expect(otherResult.map(\.name) == ["on-time"])
        }
    }

    @Test("leaving the loop with break also unsubscribes")
    func breakUnsubscribes() async throws {
        try await withHarness { harness in
            async let first = collect(harness.client.events(on: "once"), count: 1)
            await harness.server.waitForSubscribers(of: "once")
            await harness.server.trigger(channel: "once", event: "e", data: "{}")
            _ = try await first
            await harness.server.waitForMessages(named: "pusher:unsubscribe")
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("subscribe → unsubscribe → subscribe in quick succession settles on one live subscription")
    func quickResubscribe() async throws {
        try await withHarness(options: { $0.connectsAutomatically = false }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            await harness.client.connect()
            _ = await states.connectedSocketID()
            for _ in 0..<3 {
                let consumer = collecting(harness.client.events(on: "flip"), count: 1)
                #expect(await harness.client.channels == ["flip"])
                consumer.cancel()
                _ = try? await consumer.value
            }
            async let kept = collect(harness.client.events(on: "flip"), count: 1)
            // Settled: the server's last word on "flip" is a subscribe, and still is after a round
            // trip (which guarantees every earlier frame was handled): the subscribes and
            // unsubscribes of the loop may still be on their way when the first one arrives.
            let settled: @Sendable (FakePusherServer.Snapshot) -> Bool = { snapshot in
                let last = snapshot.connections.flatMap(\.received).last {
                    $0.event == "pusher:subscribe" || $0.event == "pusher:unsubscribe"
                }
                return snapshot.subscribers(of: "flip") == 1 && last?.event == "pusher:subscribe"
            }
            repeat {
                await harness.server.waitUntil(settled)
                try await LivenessTests.waitUntilClientProcessed(harness)
            } while await !settled(harness.server.snapshot)
            // Checked while the consumer is still there: once it has its event it leaves, and its
            // unsubscribe goes out at once.
            let snapshot = await harness.server.snapshot
            #expect(snapshot.subscribers(of: "flip") == 1)
            await harness.server.trigger(channel: "flip", event: "e", data: "kept")
            let keptResult = try await kept
            #expect(keptResult.map(\.data) == ["kept"])
            let errors = snapshot.messages(named: "pusher:error")
            #expect(errors.isEmpty)
        }
    }

    @Test("each (re)subscription is reported once; after a reconnect it is flagged as a resubscription")
    func resubscriptionSignal() async throws {
        try await withHarness { harness in
            var signals = harness.client.subscriptionEvents().makeAsyncIterator()
            async let events = collect(harness.client.events(on: "feed"), count: 2)
            let first = await signals.next()
            #expect(first == .succeeded(channel: "feed", isResubscription: false))
            await harness.server.trigger(channel: "feed", event: "e", data: "before")
            await harness.server.close(code: 4200, reason: "reconnect")
            let second = await signals.next()
            #expect(second == .succeeded(channel: "feed", isResubscription: true, missedWindow: second?.missedWindow))
            await harness.server.trigger(channel: "feed", event: "e", data: "after")
            let eventsResult = try await events
            #expect(eventsResult.map(\.data) == ["before", "after"])
            let snapshot = await harness.server.snapshot
            #expect(snapshot.connections.count == 2)
            // The second connection subscribed "feed" (the consumer, which has its two events,
            // may already have unsubscribed it).
            #expect(
                snapshot.connections.last?.received.contains {
                    $0.event == "pusher:subscribe" && $0.data?.contains("feed") == true
                }
                    == true)
        }
    }

    @Test("pusher_internal events are never surfaced; allEvents sees every other event once")
    func internalEventsHidden() async throws {
        try await withHarness { harness in
            async let all = collect(harness.client.allEvents(), count: 3)
            async let feed = collect(harness.client.events(on: "feed"), count: 3)
            await harness.server.waitForSubscribers(of: "feed")
            await harness.server.send(raw: #"{"event":"pusher_internal:member_added","channel":"feed","data":"{}"}"#)
            await harness.server.send(
                raw:
                    #"{"event":"pusher_internal:subscription_count","channel":"feed","data":"{\"subscription_count\":3}"}"#
            )
            await harness.server.trigger(channel: "feed", event: "one", data: "1")
            await harness.server.send(raw: #"{"event":"pusher:cache_miss","channel":"feed"}"#)
            await harness.server.trigger(channel: "feed", event: "two", data: "2")
            let allResult = try await all
            #expect(allResult.map(\.name) == ["one", "pusher:cache_miss", "two"])
            let feedResult = try await feed
            #expect(feedResult.map(\.name) == ["one", "pusher:cache_miss", "two"])
        }
    }

    @Test("a name filter delivers only matching events")
    func nameFilter() async throws {
        try await withHarness { harness in
            async let filtered = collect(harness.client.events(on: "feed", named: "b"), count: 2)
            await harness.server.waitForSubscribers(of: "feed")
            for name in ["a", "b", "c", "b"] { await harness.server.trigger(channel: "feed", event: name, data: name) }
            let filteredResult = try await filtered
            #expect(filteredResult.map(\.name) == ["b", "b"])
        }
    }

    @Test("events larger than the 16 KiB WebSocket default arrive whole")
    func largeEvent() async throws {
        try await withHarness { harness in
            async let received = collect(harness.client.events(on: "big"), count: 1)
            await harness.server.waitForSubscribers(of: "big")
            let payload = #"{"blob":""# + String(repeating: "x", count: 200_000) + #""}"#
            await harness.server.trigger(channel: "big", event: "large", data: payload)
            let receivedResult = try await received
            #expect(receivedResult.first?.data == payload)
        }
    }
}

@Suite("Subscription counts", .timeLimit(.minutes(1)))
struct SubscriptionCountTests {
    @Test("counts follow other connections joining and leaving; 0 is reported; malformed counts are errors")
    func counts() async throws {
        try await withHarness(server: .init(sendsSubscriptionCounts: true)) { harness in
            var counts = harness.client.subscriptionCounts(on: "room").makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            async let events = collect(harness.client.events(on: "room"), count: 2)
            let first = await counts.next()
            #expect(first == 1)
            // A second client joins the same channel on the same server, then leaves.
            let other = harness.server.inMemoryClient(clock: VirtualClock())
            try await withRunningClient(other) { other in
                async let _ = collect(other.events(on: "room"), count: 1)
                let two = await counts.next()
                #expect(two == 2)
                await harness.server.trigger(channel: "room", event: "hello", data: "")
            }
            let one = await counts.next()
            #expect(one == 1)
            await harness.server.send(
                raw:
                    #"{"event":"pusher_internal:subscription_count","channel":"room","data":"{\"subscription_count\":0}"}"#
            )
            let zero = await counts.next()
            #expect(zero == 0)
            await harness.server.send(
                raw: #"{"event":"pusher_internal:subscription_count","channel":"room","data":"{}"}"#)
            let error = await errors.next()
            #expect(error?.code == .malformedMessage)
            await harness.server.trigger(channel: "room", event: "bye", data: "")
            let received = try await events
            #expect(received.map(\.name) == ["hello", "bye"])
        }
    }
}
