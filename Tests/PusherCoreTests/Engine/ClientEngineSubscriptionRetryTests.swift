// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// Refused subscriptions under a ``SubscriptionRetry`` policy, and the missed window of a
/// resubscription, in the pure engine (virtual time is `script.now`).
@Suite("Engine: subscription retry and missed window")
struct ClientEngineSubscriptionRetryTests {
    typealias Action = ClientEngine.Action

    /// 1 s doubling to 60 s, no jitter: the delays are exact.
    static let retry = SubscriptionRetry.backoff(
        Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(60), jitter: 0))
    static let chat: ChannelName = "private-chat"
    static let refusal = PusherError(.authorizationFailed, "the auth endpoint answered 403")

    /// The deadline of the retry timer of `channel` among `actions`, if one was scheduled.
    static func retryDeadline(_ actions: [Action], _ channel: ChannelName = Self.chat) -> Duration? {
        actions.compactMap {
            if case .scheduleTimer(.subscriptionRetry(channel), let deadline) = $0 { deadline } else { nil }
        }.last
    }

    static func failures(_ actions: [Action]) -> [PusherError] {
        actions.compactMap {
            if case .notifySubscription(.failed(_, let error)) = $0 { error } else { nil }
        }
    }

    static func finished(_ actions: [Action]) -> [ConsumerID] {
        actions.compactMap { if case .finishConsumer(let id, _) = $0 { id } else { nil } }
    }

    @Test("an authorizer that fails twice: retried after 1 s then 2 s, both failures reported, the consumer kept")
    func authorizationRetried() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        let (id, added) = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        #expect(added.contains(.authorize(channel: Self.chat, socketID: "1.1")))

        let first = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(Self.failures(first).map(\.code) == [.authorizationFailed])
        #expect(first.reported == [.authorizationFailed])
        #expect(Self.finished(first).isEmpty)
        #expect(Self.retryDeadline(first) == .seconds(1))
        #expect(script.engine.isWaitingToRetry("private-chat"))

        script.now = .seconds(1)
        let retried = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
        #expect(retried.contains(.authorize(channel: Self.chat, socketID: "1.1")))
        let second = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(Self.failures(second).count == 1)
        #expect(Self.retryDeadline(second) == .seconds(3), "the second delay doubles")

        script.now = .seconds(3)
        _ = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
        let third = script.engine.authorized(
            channel: Self.chat, socketID: "1.1", result: .success(.init(auth: "key:sig")))
        #expect(third.sent == [#"{"event":"pusher:subscribe","data":{"channel":"private-chat","auth":"key:sig"}}"#])
        let confirmed = script.receive(EngineScript.succeeded("private-chat"))
        #expect(
            confirmed.contains(
                .notifySubscription(.succeeded(channel: "private-chat", isResubscription: false, missedWindow: nil))))
        let delivered = script.receive(EngineScript.event("hello", on: "private-chat", data: "1"))
        #expect(delivered.deliveries == [Delivery(id, "hello", "1")])
    }

    @Test("the delay counts from the refusal: an authorizer that answers at 5 s is retried at 6 s")
    func delayFromTheAnswer() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        let failed = script.engine.authorized(
            channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal), at: .seconds(5))
        #expect(Self.retryDeadline(failed) == .seconds(6))
    }

    @Test("the default policy fails the consumer as before, with no retry timer")
    func neverRetries() throws {
        var script = EngineScript()
        script.connect()
        let (id, _) = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        let failed = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(failed.contains(.finishConsumer(id, error: Self.refusal.with(channel: "private-chat"))))
        #expect(Self.retryDeadline(failed) == nil)
        #expect(!script.engine.isWaitingToRetry("private-chat"))
    }

    @Test("a confirmed subscription starts the delays afresh")
    func successResets() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        _ = try script.add(.channel("feed", eventName: nil, authorization: nil))
        let refusal =
            #"{"event":"pusher:subscription_error","channel":"feed","data":{"type":"LimitReached","error":"full"}}"#
        let first = script.receive(refusal)
        // The server may hold it anyway: unsubscribed first, so that the retry starts clean.
        #expect(first.sent == [#"{"event":"pusher:unsubscribe","data":{"channel":"feed"}}"#])
        #expect(Self.failures(first).map(\.code) == [.subscriptionFailed])
        #expect(Self.retryDeadline(first, "feed") == .seconds(1))
        script.now = .seconds(1)
        let retried = script.engine.timerFired(.subscriptionRetry("feed"), at: script.now, random: 0)
        #expect(retried.sent == [#"{"event":"pusher:subscribe","data":{"channel":"feed"}}"#])
        let second = script.receive(refusal)
        #expect(Self.retryDeadline(second, "feed") == .seconds(3))
        script.now = .seconds(3)
        _ = script.engine.timerFired(.subscriptionRetry("feed"), at: script.now, random: 0)
        _ = script.receive(EngineScript.succeeded("feed"))
        script.now = .seconds(10)
        let later = script.receive(refusal)
        #expect(Self.retryDeadline(later, "feed") == .seconds(11), "back to the first delay")
    }

    @Test("the last consumer leaving cancels the retry; the timer firing late does nothing")
    func leavingCancels() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        let (id, _) = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        _ = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        let removed = script.engine.removeConsumer(id)
        #expect(removed.contains(.cancelTimer(.subscriptionRetry(Self.chat))))
        #expect(script.engine.channelNames.isEmpty)
        #expect(script.engine.timerFired(.subscriptionRetry(Self.chat), at: .seconds(1), random: 0) == [])
    }

    @Test(
        "client events triggered while the channel waits for its retry: dropped if that retry is refused too, sent once one is confirmed"
    )
    func clientEventsDuringTheWait() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        _ = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(script.engine.isWaitingToRetry("private-chat"))
        // Accepted while the channel waits: queued, not sent.
        #expect(try script.engine.trigger("client-a", on: "private-chat", data: "1", at: script.now).sent == [])

        script.now = .seconds(1)
        _ = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
        let refusedAgain = script.engine.authorized(
            channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(refusedAgain.sent == [])
        #expect(refusedAgain.reported == [.clientEventRejected, .authorizationFailed], "the queued event is dropped")

        #expect(try script.engine.trigger("client-a", on: "private-chat", data: "2", at: script.now).sent == [])
        script.now = .seconds(3)
        _ = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
        _ = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .success(.init(auth: "key:sig")))
        let confirmed = script.receive(EngineScript.succeeded("private-chat"))
        #expect(confirmed.sent == [#"{"event":"client-a","channel":"private-chat","data":"2"}"#])
    }

    @Test("maximumAttempts retries in a row, then the next refusal ends the consumer")
    func attemptsRunOut() throws {
        var backoff = Self.retry.backoff!
        backoff.maximumAttempts = 1
        var script = EngineScript(subscriptionRetry: .backoff(backoff))
        script.connect()
        let (id, _) = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        let first = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(Self.retryDeadline(first) == .seconds(1))
        script.now = .seconds(1)
        _ = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
        let second = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        #expect(Self.retryDeadline(second) == nil)
        #expect(Self.finished(second) == [id])
        #expect(Self.failures(second).count == 1)
    }

    @Test("a refusal no retry can mend (authorizationRequired) ends the consumer at once")
    func authorizationRequiredIsFinal() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        let (id, _) = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        let required = PusherError(.authorizationRequired, "no authorizer")
        let failed = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(required))
        #expect(Self.finished(failed) == [id])
        #expect(Self.retryDeadline(failed) == nil)
    }

    @Test("jitter shortens each delay by at most its fraction, the same for the same seed")
    func jitter() throws {
        func delays(seed: UInt64) throws -> [Duration] {
            var script = EngineScript(subscriptionRetry: .backoff(Backoff(initialDelay: .seconds(1), jitter: 0.5)))
            script.engine = ClientEngine(
                configuration: .init(
                    hasAuthorizer: true, subscriptionRetry: .backoff(Backoff(initialDelay: .seconds(1), jitter: 0.5)),
                    randomSeed: seed))
            script.connect()
            _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
            var delays: [Duration] = []
            for _ in 0..<4 {
                let failed = script.engine.authorized(
                    channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
                let deadline = try #require(Self.retryDeadline(failed))
                delays.append(deadline - script.now)
                script.now = deadline
                _ = script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0)
            }
            return delays
        }
        let first = try delays(seed: 42)
        let full: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8)]
        for (delay, cap) in zip(first, full) {
            #expect(delay <= cap && delay >= cap / 2)
        }
        #expect(first != full, "no jitter was applied")
        #expect(try delays(seed: 42) == first)
        #expect(try delays(seed: 7) != first)
    }

    @Test(
        "a channel waiting for its retry is not subscribed by a reconnect; a retry due while away waits for the connection"
    )
    func retryHoldsAcrossReconnects() throws {
        var script = EngineScript(subscriptionRetry: Self.retry)
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        _ = script.engine.authorized(channel: Self.chat, socketID: "1.1", result: .failure(Self.refusal))
        _ = script.engine.transportClosed(
            generation: script.generation, closeCode: 4200, reason: nil, at: script.now, random: 0)
        let reconnected = script.connect(socketID: "2.2")
        #expect(!reconnected.contains(.authorize(channel: Self.chat, socketID: "2.2")))
        _ = script.engine.transportClosed(
            generation: script.generation, closeCode: 4100, reason: nil, at: script.now, random: 0)
        script.now = .seconds(1)
        #expect(script.engine.timerFired(.subscriptionRetry(Self.chat), at: script.now, random: 0) == [])
        let third = script.connect(socketID: "3.3")
        #expect(third.contains(.authorize(channel: Self.chat, socketID: "3.3")))
    }

    @Test("a resubscription carries the window from the last frame of the lost connection to the confirmation")
    func missedWindow() throws {
        var script = EngineScript()
        script.now = .seconds(1)
        script.connect()
        _ = try script.add(.channel("feed", eventName: nil, authorization: nil))
        let first = script.receive(EngineScript.succeeded("feed"))
        #expect(
            first.contains(.notifySubscription(.succeeded(channel: "feed", isResubscription: false, missedWindow: nil)))
        )
        script.now = .seconds(30)
        _ = script.receive(EngineScript.event("e", on: "feed"))
        // Lost at 40 s: the last frame came at 30 s, so that is the last moment known subscribed.
        script.now = .seconds(40)
        _ = script.engine.transportClosed(
            generation: script.generation, closeCode: 4200, reason: nil, at: script.now, random: 0)
        script.now = .seconds(41)
        script.connect(socketID: "2.2")
        script.now = .seconds(42)
        let again = script.receive(EngineScript.succeeded("feed"))
        let window = MissedWindow(lastKnownSubscribed: .seconds(30), subscribedAgain: .seconds(42))
        #expect(
            again.contains(
                .notifySubscription(.succeeded(channel: "feed", isResubscription: true, missedWindow: window))))
        #expect(window.duration == .seconds(12))
    }
}

extension PusherError {
    fileprivate func with(channel: String) -> PusherError {
        var error = self
        error.channel = channel
        return error
    }
}
