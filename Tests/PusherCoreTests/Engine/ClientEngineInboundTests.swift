// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: inbound frames")
struct ClientEngineInboundTests {
    @Test("one batch is delivered in order, to the consumers that take each event, then to all-channel consumers")
    func batchFanOut() throws {
        var script = EngineScript()
        script.connect()
        let every = try script.add(.channel("prices", eventName: nil, authorization: nil)).id
        let ticks = try script.add(.channel("prices", eventName: "tick", authorization: nil)).id
        let all = try script.add(.all).id
        _ = script.receive(EngineScript.succeeded("prices"))
        let actions = script.receive(
            EngineScript.event("tick", on: "prices", data: "1"),
            EngineScript.event("close", on: "prices", data: "2"),
            EngineScript.event("tick", on: "nobody-listens", data: "3"),
            EngineScript.event("tick", on: "prices", data: "4")
        )
        #expect(
            actions.deliveries == [
                Delivery(every, "tick", "1"), Delivery(ticks, "tick", "1"), Delivery(all, "tick", "1"),
                Delivery(every, "close", "2"), Delivery(all, "close", "2"),
                Delivery(every, "tick", "4"), Delivery(ticks, "tick", "4"), Delivery(all, "tick", "4"),
            ]
        )
    }

    @Test(
        "protocol events are exactly pusher: and pusher_internal: names; others are app events",
        arguments: [
            ("pusher-update", true),
            ("pusherX", true),
            ("pusher:cache_miss", true),
            ("pusher_internal:unknown", false),
            ("client-typing", true),
        ]
    )
    func protocolPrefixes(name: String, delivered: Bool) throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("feed", eventName: nil, authorization: nil)).id
        _ = script.receive(EngineScript.succeeded("feed"))
        let actions = script.receive(EngineScript.event(name, on: "feed"))
        #expect(actions.deliveries == (delivered ? [Delivery(id, name, "{}")] : []))
    }

    @Test("malformed and binary frames are reported one by one; the rest of the batch still flows")
    func badFramesInBatch() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("feed", eventName: nil, authorization: nil)).id
        _ = script.receive(EngineScript.succeeded("feed"))
        var frames: [ClientEngine.InboundFrame] = [.text("not json"), .binary, .text(#"{"channel":"feed"}"#)]
        frames.append(.text(EngineScript.event("ok", on: "feed", data: "1")))
        let actions = script.engine.received(frames, generation: script.generation, at: script.now)
        #expect(actions.reported == [.malformedMessage, .malformedMessage, .malformedMessage])
        #expect(actions.deliveries == [Delivery(id, "ok", "1")])
    }

    @Test(
        "control messages are decoded into typed notifications or typed errors",
        arguments: [
            (
                #"{"event":"pusher_internal:subscription_count","channel":"feed","data":"{\"subscription_count\":3}"}"#,
                ClientEngine.Action.notifySubscriptionCount(3, channel: "feed")
            ),
            (
                #"{"event":"pusher_internal:subscription_count","channel":"feed","data":"{}"}"#,
                .report(PusherError(.malformedMessage, "subscription_count without a count", channel: "feed"))
            ),
            (
                #"{"event":"pusher:error","data":{"message":"Over quota","code":4004}}"#,
                .report(PusherError(.serverError, "Over quota", closeCode: 4004))
            ),
            (#"{"event":"pusher:error","data":"plain words"}"#, .report(PusherError(.serverError, "plain words"))),
        ]
    )
    func controlMessages(frame: String, expected: ClientEngine.Action) throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("feed", eventName: nil, authorization: nil))
        #expect(script.receive(frame) == [expected])
    }

    @Test("connection_established without a socket id is a typed error and does not connect")
    func establishedWithoutSocketID() {
        var script = EngineScript()
        _ = script.engine.connect(at: .zero)
        _ = script.engine.transportOpened(generation: 1, at: .zero)
        script.generation = 1
        #expect(
            script.receive(#"{"event":"pusher:connection_established","data":"{}"}"#).reported == [.malformedMessage])
        #expect(script.engine.state.socketID == nil)
    }

    @Test("frames of a socket that is no longer live are ignored")
    func staleGeneration() throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("feed", eventName: nil, authorization: nil))
        _ = script.receive(EngineScript.succeeded("feed"))
        let actions = script.engine.received(
            [.text(EngineScript.event("late", on: "feed"))], generation: script.generation + 5, at: .zero)
        #expect(actions.isEmpty)
    }

    @Test("server-to-user events reach only the signed-in user's consumers")
    func serverToUser() throws {
        var script = EngineScript()
        script.connect()
        let user = try script.add(.user(eventName: nil)).id
        #expect(
            script.receive(EngineScript.event("hello", on: "#server-to-user-7")).deliveries.isEmpty, "not signed in")
        _ = script.engine.signIn()
        _ = script.engine.userAuthenticated(socketID: "1.1", auth: "key:sig", userData: #"{"id":"7"}"#)
        _ = script.receive(#"{"event":"pusher:signin_success","data":"{\"user_data\":\"{\\\"id\\\":\\\"7\\\"}\"}"}"#)
        #expect(script.engine.user?.id == "7")
        #expect(
            script.receive(EngineScript.event("hello", on: "#server-to-user-7")).deliveries == [
                Delivery(user, "hello", "{}")
            ])
        #expect(script.receive(EngineScript.event("hello", on: "#server-to-user-8")).deliveries.isEmpty)
    }
}
