// SPDX-License-Identifier: MIT

import PusherCore
import PusherServerEngine
import Testing

@Suite("Server engine")
struct ServerEngineTests {
    @Test("a closed connection leaves nothing behind, however many came before")
    func nothingKeptAfterClose() {
        var harness = EngineHarness()
        for round in 0..<20_000 {
            let (id, _) = harness.connect()
            _ = harness.subscribe(id, to: "chat-\(round % 7)")
            _ = harness.engine.closed(id)
        }
        #expect(harness.engine.connections.isEmpty)
        #expect(harness.engine.subscribers.isEmpty)
        #expect(harness.engine.occupiedChannels.isEmpty)
        // A new connection's subscription reaches only the channel's subscribers.
        let (a, _) = harness.connect()
        let (b, _) = harness.connect()
        _ = harness.subscribe(a, to: "prices")
        let (actions, recipients) = harness.engine.publish(channel: "prices", event: "e", data: "{}")
        #expect(recipients == 1)
        #expect(actions.texts(to: a).count == 1)
        #expect(actions.texts(to: b).isEmpty)
    }

    @Test("webhooks come in pairs for a user's own channel too")
    func userChannelWebhooksPaired() {
        var harness = EngineHarness()
        let (id, _) = harness.connect()
        _ = harness.signIn(id, userID: "alice")
        let subscribed = harness.subscribe(id, to: "#server-to-user-alice")
        #expect(subscribed.webhookNames == ["channel_occupied"])
        #expect(harness.engine.closed(id).webhookNames == ["channel_vacated"])
    }

    @Test("occupied before member_added, member_removed before vacated")
    func presenceWebhookOrder() {
        var harness = EngineHarness()
        let (id, _) = harness.connect()
        let joined = harness.subscribe(id, to: "presence-room", channelData: #"{"user_id":"u1"}"#)
        #expect(joined.webhookNames == ["channel_occupied", "member_added"])
        let left = harness.send(#"{"event":"pusher:unsubscribe","data":{"channel":"presence-room"}}"#, from: id)
        #expect(left.webhookNames == ["member_removed", "channel_vacated"])
        #expect(harness.engine.closed(id).webhookNames.isEmpty)
    }

    @Test("presence: the member after the limit, a long user id and a large user_info are refused")
    func presenceLimits() throws {
        var settings = ServerSettings(appKey: "key", appSecret: "secret")
        settings.presenceMembers = 3
        var harness = EngineHarness(settings: settings)
        for user in 0..<3 {
            let (id, _) = harness.connect()
            let actions = harness.subscribe(id, to: "presence-room", channelData: #"{"user_id":"u\#(user)"}"#)
            #expect(actions.texts(to: id).contains { $0.contains("subscription_succeeded") })
        }
        let (fourth, _) = harness.connect()
        let refused = harness.subscribe(fourth, to: "presence-room", channelData: #"{"user_id":"u4"}"#)
        let text = try #require(refused.texts(to: fourth).first)
        #expect(text.contains("pusher:subscription_error"))
        #expect(text.contains("LimitReached"))
        // The same user on another connection is not a new member.
        let again = harness.subscribe(fourth, to: "presence-room", channelData: #"{"user_id":"u1"}"#)
        #expect(again.texts(to: fourth).contains { $0.contains("subscription_succeeded") })

        var harness2 = EngineHarness()
        let (id, _) = harness2.connect()
        let longID = String(repeating: "x", count: 129)
        let tooLong = harness2.subscribe(id, to: "presence-a", channelData: #"{"user_id":"\#(longID)"}"#)
        #expect(tooLong.texts(to: id).first?.contains("LimitReached") == true)
        let info = String(repeating: "y", count: 1_100)
        let tooLarge = harness2.subscribe(
            id, to: "presence-b", channelData: #"{"user_id":"u","user_info":{"name":"\#(info)"}}"#)
        #expect(tooLarge.texts(to: id).first?.contains("LimitReached") == true)
        #expect(harness2.engine.subscribers.isEmpty)
    }

    @Test("client events over 10 KB are refused, the others relayed to the other members")
    func clientEventSize() {
        var harness = EngineHarness()
        let (a, _) = harness.connect()
        let (b, _) = harness.connect()
        _ = harness.subscribe(a, to: "private-chat")
        _ = harness.subscribe(b, to: "private-chat")
        let small = harness.send(#"{"event":"client-typing","channel":"private-chat","data":{"x":1}}"#, from: a)
        #expect(small.texts(to: b) == [#"{"event":"client-typing","channel":"private-chat","data":{"x":1}}"#])
        #expect(small.texts(to: a).isEmpty)
        let big = String(repeating: "z", count: 10_300)
        let large = harness.send(#"{"event":"client-typing","channel":"private-chat","data":"\#(big)"}"#, from: a)
        #expect(large.texts(to: b).isEmpty)
        #expect(large.texts(to: a).first?.contains("over the limit of 10240") == true)
        #expect(large.webhookNames.isEmpty)
    }

    @Test("a silent connection is pinged after activity_timeout and closed with 4201 after the pong timeout")
    func silentConnectionClosed() {
        var harness = EngineHarness()
        let (silent, _) = harness.connect()
        let (lively, _) = harness.connect()
        harness.now = .seconds(119)
        #expect(harness.engine.expire(now: harness.now).isEmpty)
        harness.now = .seconds(120)
        let pings = harness.engine.expire(now: harness.now)
        #expect(pings.contains(.ping(silent)))
        #expect(pings.contains(.ping(lively)))
        harness.now = .seconds(130)
        _ = harness.send(#"{"event":"pusher:pong","data":{}}"#, from: lively)
        harness.now = .seconds(150)
        let closes = harness.engine.expire(now: harness.now)
        #expect(closes.closeCodes(of: silent) == [4201])
        #expect(closes.closeCodes(of: lively).isEmpty)
        // Closed once: the next check does not close it again.
        harness.now = .seconds(151)
        #expect(harness.engine.expire(now: harness.now).closeCodes(of: silent).isEmpty)
    }

    @Test("a WebSocket ping frame counts as activity")
    func framesAreActivity() {
        var harness = EngineHarness()
        let (id, _) = harness.connect()
        harness.now = .seconds(100)
        harness.engine.activity(from: id, now: harness.now)
        harness.now = .seconds(200)
        #expect(harness.engine.expire(now: harness.now) == [])
        harness.now = .seconds(220)
        #expect(harness.engine.expire(now: harness.now) == [.ping(id)])
    }

    @Test("an unknown app key gets pusher:error 4001 and a close with 4001")
    func unknownKey() {
        var engine = ServerEngine(settings: ServerSettings(appKey: "key", appSecret: nil))
        let (id, actions) = engine.open(uri: "/app/other?protocol=7", now: .zero)
        #expect(actions.closeCodes(of: id) == [4001])
        #expect(actions.texts(to: id).first?.contains("4001") == true)
    }

    @Test("signed-in users reach their connections; terminating closes them with 4009")
    func users() {
        var harness = EngineHarness()
        let (a, _) = harness.connect()
        let (b, _) = harness.connect()
        _ = harness.signIn(a, userID: "alice")
        let toUser = harness.engine.publishToUser("alice", event: "hello", data: "{}")
        #expect(toUser.texts(to: a).count == 1)
        #expect(toUser.texts(to: b).isEmpty)
        #expect(harness.engine.terminateConnections(of: "alice").closeCodes(of: a) == [4009])
        _ = harness.engine.closed(a)
        #expect(harness.engine.signedIn.isEmpty)
    }

    @Test("log lines escape what clients sent")
    func escaping() {
        #expect(ServerEngine.escaped("a\nb\u{1B}[31m") == #"a\nb\u{1b}[31m"#)
        #expect(ServerEngine.escaped(String(repeating: "x", count: 300)).count == 201)
    }
}
