// SPDX-License-Identifier: MIT

import PusherChannelsTesting
import PusherCore
import Testing

@testable import PusherChannels

/// Staying subscribed (``PusherClientConfiguration/subscriptionRetry``) and the missed window of a
/// resubscription, against the in-memory fake server in virtual time.
@Suite("Subscription retry and missed window", .timeLimit(.minutes(1)))
struct SubscriptionRetryTests {
    static let secret = "fake-app-secret"
    /// 1 s doubling, no jitter: the deadlines are exact.
    static let retry = SubscriptionRetry.backoff(
        Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(60), jitter: 0))

    /// A harness whose server checks signatures and whose client authorizes through `script`, with
    /// `retry` as the subscription retry policy.
    func withRetryHarness(
        retry: SubscriptionRetry = Self.retry, _ body: (Harness, AuthorizerScript) async throws -> Void
    ) async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret)
        let script = AuthorizerScript(key: server.appKey, secret: Self.secret)
        let authorizer = await script.authorizer
        try await withHarness(
            server: server,
            options: {
                $0.authorizer = authorizer
                $0.subscriptionRetry = retry
            }
        ) { harness in
            try await body(harness, script)
        }
    }

    static func retryTimers(_ client: PusherClient) async -> [Duration] {
        await client.scheduledTimers.filter { $0.timer == .subscriptionRetry(ChannelName(unchecked: "private-chat")) }
            .map(\.deadline)
    }

    @Test("an authorizer that fails twice: the sequence keeps going, retried at 1 s then 3 s, and gets the event")
    func failsTwiceThenSucceeds() async throws {
        try await withRetryHarness { harness, script in
            await script.fail(1)
            await script.fail(2)
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            let consumer = collecting(harness.client.events(on: "private-chat"), count: 1)

            let first = await signals.next()
            #expect(first?.isFailure(.authorizationFailed) == true)
            #expect(await errors.next()?.code == .authorizationFailed)
            // One task sleeps until the earliest timer: the retry, 1 s after the refusal at 0 s.
            await harness.clock.waitForDeadlines([.seconds(1)])
            #expect(await Self.retryTimers(harness.client) == [.seconds(1)])
            #expect(await script.requests.count == 1)

            harness.clock.advance(by: .seconds(1))
            let second = await signals.next()
            #expect(second?.isFailure(.authorizationFailed) == true)
            #expect(await errors.next()?.code == .authorizationFailed)
            await harness.clock.waitForDeadlines([.seconds(3)])
            #expect(await Self.retryTimers(harness.client) == [.seconds(3)], "the second delay doubles")
            #expect(await script.requests.count == 2)

            harness.clock.advance(by: .seconds(2))
            let third = await signals.next()
            #expect(third == .succeeded(channel: "private-chat", isResubscription: false, missedWindow: nil))
            #expect(await script.requests.count == 3)
            await harness.server.trigger(channel: "private-chat", event: "back", data: "1")
            let received = try await consumer.value
            #expect(received.map(\.name) == ["back"])
            #expect(await Self.retryTimers(harness.client).isEmpty)
        }
    }

    @Test("the default policy ends the sequence with the refusal and retries nothing")
    func defaultEndsTheSequence() async throws {
        try await withRetryHarness(retry: .never) { harness, script in
            await script.fail(1)
            await #expect {
                for try await _ in harness.client.events(on: "private-chat") {}
            } throws: { error in
                (error as? PusherError)?.code == .authorizationFailed
            }
            #expect(await Self.retryTimers(harness.client).isEmpty)
            harness.clock.advance(by: .seconds(5))
            try await LivenessTests.waitUntilClientProcessed(harness)
            #expect(await script.requests.count == 1)
        }
    }

    @Test("cancelling the consumer while it waits for a retry stops the retries at once")
    func cancellationStopsRetrying() async throws {
        try await withRetryHarness { harness, script in
            await script.fail(1)
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            let consumer = Task { for try await _ in harness.client.events(on: "private-chat") {} }
            #expect(await signals.next()?.isFailure(.authorizationFailed) == true)
            await harness.clock.waitForDeadlines([.seconds(1)])
            consumer.cancel()
            // The consumer ended without an error: it was not failed, it left.
            try await consumer.value
            // The retry timer is gone: the one sleeper moved on to the activity timer.
            await harness.client.waitForEarliestDeadline(.seconds(120))
            #expect(await Self.retryTimers(harness.client).isEmpty)
            harness.clock.advance(by: .seconds(10))
            try await LivenessTests.waitUntilClientProcessed(harness)
            #expect(await script.requests.count == 1)
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("withSubscription waits through a retried refusal and runs once the server confirms")
    func withSubscriptionWaitsThroughRetry() async throws {
        try await withRetryHarness { harness, script in
            await script.fail(1)
            let confirmed = Task {
                try await harness.client.withSubscription(to: "private-chat") { _ in harness.client.clock.now }
            }
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .seconds(1))
            // It ran only after the retry at 1 s was confirmed.
            let ranAt = try await confirmed.value
            #expect(ranAt == .seconds(1))
            #expect(await script.requests.count == 2)
        }
    }

    @Test("after a reconnect the success carries the last moment known subscribed and the confirmation")
    func missedWindowAfterReconnect() async throws {
        try await withHarness { harness in
            var signals = harness.client.subscriptionEvents(on: "feed").makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            var events = harness.client.events(on: "feed").makeAsyncIterator()
            #expect(await signals.next() == .succeeded(channel: "feed", isResubscription: false, missedWindow: nil))
            // The last frame of the connection arrives at 5 s; the connection drops at 8 s.
            harness.clock.advance(by: .seconds(5))
            await harness.server.trigger(channel: "feed", event: "tick", data: "1")
            let tick = try await events.next()
            #expect(tick?.name == "tick")
            harness.clock.advance(by: .seconds(3))
            await harness.server.drop()
            _ = await states.collect(until: \.isReconnecting)
            // Reconnected after the 1 s backoff, at 9 s, and confirmed again then.
            await harness.clock.waitForDeadlines([.seconds(9)])
            harness.clock.advance(by: .seconds(1))
            let again = await signals.next()
            let window = MissedWindow(lastKnownSubscribed: .seconds(5), subscribedAgain: .seconds(9))
            #expect(again == .succeeded(channel: "feed", isResubscription: true, missedWindow: window))
            #expect(again?.missedWindow?.duration == .seconds(4))
        }
    }
}

extension SubscriptionEvent {
    fileprivate func isFailure(_ code: PusherError.Code) -> Bool {
        if case .failed(_, let error) = self { error.code == code } else { false }
    }
}

extension SubscriptionRetryTests {
    @Test(
        "a retry policy whose delays would loop is refused at connect: invalidConfiguration naming it",
        arguments: [
            ("subscriptionRetry.backoff.initialDelay", Backoff(initialDelay: .zero)),
            ("subscriptionRetry.backoff.maximumDelay", Backoff(maximumDelay: .seconds(-1))),
            ("subscriptionRetry.backoff", Backoff(jitter: .nan)),
            ("subscriptionRetry.backoff.maximumAttempts", Backoff(maximumAttempts: -1)),
        ])
    func invalidPolicy(option: String, backoff: Backoff) async throws {
        try await withInMemoryClient(configuration: { $0.subscriptionRetry = .backoff(backoff) }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await states.collect { $0 != .initialized }.last
            let failure = try #require(first?.failure)
            #expect(failure.code == .invalidConfiguration)
            #expect(failure.message.contains("invalid option \(option) "), "\(failure.message)")
            #expect(harness.transport.connections.isEmpty)
        }
    }
}
