// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Every public sequence iterates one kind of consumer: a loop takes what is buffered in runs,
/// under one lock each, and loses nothing: notification sequences and `withSubscription` loops
/// too, and between loops over one subscription.
@Suite("Consumer runs behind every sequence", .timeLimit(.minutes(1)))
struct ConsumerRunTests {
    static func event(_ index: Int, on channel: String) -> String {
        #"{"event":"e","channel":"\#(channel)","data":"\#(index)"}"#
    }

    @Test("a notification sequence takes its backlog in runs, in order, and loses nothing")
    func notificationsInRuns() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            let channels = (0..<200).map { "room-\($0)" }
            var outcomes = harness.client.subscriptionEvents().makeAsyncIterator()
            let events = harness.client.events(on: channels).makeAsyncIterator()
            for channel in channels { peer.send(RegistrationTests.succeeded(channel)) }
            await RegistrationTests.roundTrip(peer)
            var confirmed: [String] = []
            while confirmed.count < channels.count, let outcome = await outcomes.next() {
                if case .succeeded(let channel, _, _) = outcome { confirmed.append(channel) }
            }
            #expect(confirmed == channels)
            // 200 buffered notifications: two runs (at most 128 each), not 200 takes.
            #expect(outcomes.takeCount <= 3)
            withExtendedLifetime(events) {}
        }
    }

    @Test("a withSubscription loop takes its backlog in runs, in order, and loses nothing")
    func subscriptionInRuns() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            try await harness.client.withSubscription(to: "feed", waitsForConfirmation: false) { feed in
                peer.send(RegistrationTests.succeeded("feed"))
                for index in 0..<300 { peer.send(Self.event(index, on: "feed")) }
                await RegistrationTests.roundTrip(peer)
                var events = feed.makeAsyncIterator()
                var received: [String] = []
                while received.count < 300, let event = try await events.next() { received.append(event.data) }
                #expect(received == (0..<300).map(String.init))
                // 300 buffered events: three runs of at most 128, not 300 takes.
                #expect(events.takeCount <= 4)
            }
        }
    }

    @Test("a loop left in the middle of a run gives the rest back: the next loop gets it, in order")
    func leftLoopGivesTheRunBack() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            try await harness.client.withSubscription(to: "feed", waitsForConfirmation: false) { feed in
                peer.send(RegistrationTests.succeeded("feed"))
                for index in 0..<10 { peer.send(Self.event(index, on: "feed")) }
                await RegistrationTests.roundTrip(peer)
                var first: [String] = []
                for try await event in feed {
                    first.append(event.data)
                    if first.count == 3 { break }
                }
                var rest: [String] = []
                for try await event in feed {
                    rest.append(event.data)
                    if rest.count == 7 { break }
                }
                #expect(first == ["0", "1", "2"])
                #expect(rest == (3..<10).map(String.init))
            }
        }
    }

    @Test("a cancelled loop ends at its next next(); the rest of its run stays for the next loop")
    func cancelledLoopLeavesTheRun() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            try await harness.client.withSubscription(to: "feed", waitsForConfirmation: false) { feed in
                peer.send(RegistrationTests.succeeded("feed"))
                for index in 0..<5 { peer.send(Self.event(index, on: "feed")) }
                await RegistrationTests.roundTrip(peer)
                let cancelled = Task {
                    var events = feed.makeAsyncIterator()
                    let first = try await events.next()?.data
                    withUnsafeCurrentTask { $0?.cancel() }
                    let afterCancel = try await events.next()
                    return (first, afterCancel == nil)
                }
                let (first, ended) = try await cancelled.value
                #expect(first == "0")
                #expect(ended)
                var rest: [String] = []
                for try await event in feed {
                    rest.append(event.data)
                    if rest.count == 4 { break }
                }
                #expect(rest == ["1", "2", "3", "4"])
            }
        }
    }
}
