// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("Client engine: authorization")
struct ClientEngineAuthorizationTests {
    @Test(
        "a server error mentions a channel only as a whole name",
        arguments: [
            ("Existing subscription to channel private-a", "private-a", true),
            ("Existing subscription to channel private-ab", "private-a", false),
            ("Invalid signature: expected HMAC of 1.1:private-a.", "private-a", true),
            ("private-a, private-b refused", "private-b", true),
            ("nothing here", "private-a", false),
        ]
    )
    func mentions(message: String, channel: String, expected: Bool) {
        #expect(ClientEngine.mentions(message, channel: channel) == expected)
    }

    @Test("a pusher:error naming a subscription that waits fails only that one")
    func errorFailsPendingSubscription() throws {
        var script = EngineScript()
        script.connect()
        let a = try script.add(.channel("private-a", eventName: nil, authorization: nil)).id
        _ = try script.add(.channel("private-b", eventName: nil, authorization: nil))
        for channel in ["private-a", "private-b"] {
            _ = script.engine.authorized(
                channel: ChannelName(unchecked: channel), socketID: "1.1", result: .success(.init(auth: "k:s")))
        }
        let actions = script.receive(
            #"{"event":"pusher:error","data":{"message":"Invalid signature for private-a","code":null}}"#)
        let finished = actions.compactMap {
            if case .finishConsumer(let id, let error?) = $0 { (id, error.code) } else { nil }
        }
        #expect(finished.map(\.0) == [a])
        #expect(finished.map(\.1) == [.subscriptionFailed])
        #expect(script.engine.consumerCount(on: "private-b") == 1)
    }

    @Test("a long pusher:error with many pending subscriptions is read once, not once per channel")
    func errorScanIsLinear() throws {
        var script = EngineScript()
        script.connect()
        let pending = 2_000
        var ids: [String: ConsumerID] = [:]
        for index in 0..<pending {
            let channel = "private-\(index)"
            ids[channel] = try script.add(.channel(channel, eventName: nil, authorization: nil)).id
            _ = script.engine.authorized(
                channel: ChannelName(unchecked: channel), socketID: "1.1", result: .success(.init(auth: "k:s")))
        }
        // About 100 KB of words, naming one pending channel near the end.
        let filler = String(repeating: "lorem-ipsum dolor ", count: 5_500)
        let message = "Invalid signature: " + filler + "for private-1999."
        let started = ContinuousClock.now
        let actions = script.receive(
            #"{"event":"pusher:error","data":{"message":"\#(message)","code":null}}"#)
        let elapsed = ContinuousClock.now - started
        let failed = actions.compactMap { if case .finishConsumer(let id, _?) = $0 { id } else { nil } }
        #expect(failed == [ids["private-1999"]])
        // A complexity guard, not a benchmark: reading the message once per pending channel
        // (2,000 × 100 KB) took about a minute in a debug build; once takes a fraction of a second.
        #expect(elapsed < .seconds(3), "took \(elapsed)")
    }

    @Test("an answer for an older socket id is ignored; the current request decides")
    func staleAnswer() throws {
        var script = EngineScript()
        script.connect(socketID: "1.1")
        _ = try script.add(.channel("private-a", eventName: nil, authorization: nil))
        let stale = script.engine.authorized(
            channel: "private-a", socketID: "0.9", result: .success(.init(auth: "k:old")))
        #expect(stale.isEmpty)
        let current = script.engine.authorized(
            channel: "private-a", socketID: "1.1", result: .success(.init(auth: "k:new")))
        #expect(current.sent == [#"{"event":"pusher:subscribe","data":{"channel":"private-a","auth":"k:new"}}"#])
    }

    @Test("a presence authorization without channel_data fails the subscription")
    func presenceWithoutChannelData() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.presence("presence-room", authorization: nil)).id
        let actions = script.engine.authorized(
            channel: "presence-room", socketID: "1.1", result: .success(.init(auth: "k:s")))
        #expect(actions.sent.isEmpty)
        #expect(
            actions.contains {
                if case .finishConsumer(id, let error?) = $0 { error.code == .authorizationFailed } else { false }
            })
    }

    @Test("a channel signed in process is subscribed at once: no authorizer call, no timer; others still call")
    func localAuthorization() throws {
        var script = EngineScript()
        script.engine = ClientEngine(
            configuration: .init(
                hasAuthorizer: true,
                localAuthorization: { socketID, channel in
                    channel.hasPrefix("presence-") ? nil : .success(.init(auth: "k:\(socketID)-\(channel)"))
                }))
        script.connect()
        let actions = try script.add(.channel("private-a", eventName: nil, authorization: nil)).actions
        #expect(
            actions.contains(
                .send(
                    generation: 1,
                    text: OutboundMessage.subscribe(channel: "private-a", auth: "k:1.1-private-a"))),
            "\(actions)")
        #expect(!actions.contains { if case .authorize = $0 { true } else { false } })
        #expect(!actions.contains { if case .scheduleTimer = $0 { true } else { false } })
        let presence = try script.add(.channel("presence-b", eventName: nil, authorization: nil)).actions
        #expect(presence.contains(.authorize(channel: "presence-b", socketID: "1.1")))
    }
}
