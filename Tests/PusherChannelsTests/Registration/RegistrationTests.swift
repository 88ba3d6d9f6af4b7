// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import Testing

/// A consumer exists from the moment its iterator (or scope) does: nothing sent after that is
/// missed, and nothing waits for a consumer in another task.
@Suite("Registration when made", .timeLimit(.minutes(1)))
struct RegistrationTests {
    static func event(_ name: String, on channel: String, data: String) -> String {
        #"{"event":"\#(name)","channel":"\#(channel)","data":"\#(data)"}"#
    }

    static func succeeded(_ channel: String) -> String {
        #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#
    }

    /// Sends `pusher:ping` and waits for the pong: every frame sent before has been handled.
    static func roundTrip(_ peer: InMemoryPeer) async {
        peer.send(#"{"event":"pusher:ping","data":{}}"#)
        _ = await peer.nextMessage(named: "pusher:pong")
    }

    @Test("an event sent right after the iterator is made, before any next(), is delivered")
    func eventAfterIteratorIsMade() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            var events = harness.client.events(on: "news").makeAsyncIterator()
            peer.send(Self.succeeded("news"), Self.event("n", on: "news", data: "1"))
            // The client has handled the event before anyone called next().
            await Self.roundTrip(peer)
            try #require(await harness.client.channels == ["news"])
            let received = try await events.next()
            #expect(received?.data == "1")
        }
    }

    @Test("a presence consumer and a user-events consumer are registered when their iterators are made")
    func presenceAndUserEventsRegisterWhenMade() async throws {
        try await withInMemoryClient(configuration: {
            $0.authorizer = .signing(key: "app-key", secret: "secret") { _ in PresenceMember(userID: "u1") }
        }) { harness in
            let peer = await harness.established()
            var members: ChannelSequence<PresenceChange>.AsyncIterator? = harness.client.presence(on: "presence-room")
                .makeAsyncIterator()
            var user: ChannelSequence<ChannelEvent>.AsyncIterator? = harness.client.userEvents().makeAsyncIterator()
            #expect(await harness.client.channels == ["presence-room"])
            #expect(await harness.client.consumerCount(on: PusherClient.userEventsConsumers) == 1)
            #expect(await peer.nextMessage(named: "pusher:subscribe").contains(#""channel":"presence-room""#))
            // Dropped without being iterated: both are removed.
            members = nil
            user = nil
            await harness.client.waitForConsumers(on: PusherClient.userEventsConsumers, count: 0)
            await harness.client.waitForConsumers(on: "presence-room", count: 0)
            #expect(await harness.client.channels.isEmpty)
            _ = (members, user)
        }
    }

    @Test("a sequence that is never iterated registers nothing; an iterator dropped unread unsubscribes")
    func lifetimes() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            let sequence = harness.client.events(on: "idle")
            #expect(await harness.client.channels.isEmpty)
            var iterator: ChannelSequence<ChannelEvent>.AsyncIterator? = sequence.makeAsyncIterator()
            #expect(await harness.client.channels == ["idle"])
            #expect(await peer.nextMessage(named: "pusher:subscribe").contains(#""channel":"idle""#))
            peer.send(Self.succeeded("idle"))
            iterator = nil
            #expect(await peer.nextMessage(named: "pusher:unsubscribe").contains(#""channel":"idle""#))
            #expect(await harness.client.channels.isEmpty)
            _ = iterator
        }
    }

    @Test("an iteration that ends unsubscribes at once, even while a copy of its iterator is alive")
    func endedIterationReleasesCopies() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            let iterator = harness.client.events(on: "copied").makeAsyncIterator()
            let task = Task {
                var copy = iterator
                while try await copy.next() != nil {}
            }
            #expect(await peer.nextMessage(named: "pusher:subscribe").contains(#""channel":"copied""#))
            peer.send(Self.succeeded("copied"))
            task.cancel()
            try await task.value
            // The task's closure still holds a copy of the iterator; the ended loop released the consumer.
            #expect(await peer.nextMessage(named: "pusher:unsubscribe").contains(#""channel":"copied""#))
            withExtendedLifetime(task) {}
        }
    }

    @Test("withSubscription runs its body only once the server confirmed; leaving it unsubscribes")
    func scopeWaitsForConfirmation() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            let log = NIOLockedValueBox<[String]>([])
            let scope = Task {
                try await harness.client.withSubscription(to: "prices") { prices in
                    log.withLockedValue { $0.append("body") }
                    var events = prices.makeAsyncIterator()
                    return try await events.next()?.data
                }
            }
            #expect(await peer.nextMessage(named: "pusher:subscribe").contains(#""channel":"prices""#))
            await Self.roundTrip(peer)
            log.withLockedValue { $0.append("confirmed") }
            peer.send(Self.succeeded("prices"), Self.event("p", on: "prices", data: "1"))
            let received = try await scope.value
            #expect(received == "1")
            #expect(log.withLockedValue { $0 } == ["confirmed", "body"])
            #expect(
                await peer.nextMessage(named: "pusher:unsubscribe")
                    == #"{"event":"pusher:unsubscribe","data":{"channel":"prices"}}"#)
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("withSubscription throws what refuses the subscription; its body never runs")
    func scopeRefused() async throws {
        try await withInMemoryClient { harness in
            _ = await harness.established()
            await #expect(throws: PusherError.self) {
                try await harness.client.withSubscription(to: "#reserved") { _ in Issue.record("body ran") }
            }
            do {
                try await harness.client.withSubscription(to: "private-orders") { _ in Issue.record("body ran") }
            } catch let error as PusherError {
                #expect(error.code == .authorizationRequired)
            }
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("a subscription is iterated by one loop at a time")
    func oneLoopAtATime() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            try await harness.client.withSubscription(to: "feed", waitsForConfirmation: false) { feed in
                var first = feed.makeAsyncIterator()
                var second = feed.makeAsyncIterator()
                await #expect(throws: PusherError.self) { _ = try await second.next() }
                peer.send(Self.succeeded("feed"), Self.event("e", on: "feed", data: "1"))
                let received = try await first.next()
                #expect(received?.data == "1")
            }
            _ = await peer.nextMessage(named: "pusher:unsubscribe")
        }
    }
}
