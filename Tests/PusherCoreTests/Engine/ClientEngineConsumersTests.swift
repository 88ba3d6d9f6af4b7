// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: consumers and subscriptions")
struct ClientEngineConsumersTests {
    @Test("the first consumer subscribes, the last one leaving unsubscribes; unknown ids are ignored")
    func sharedSubscription() throws {
        var script = EngineScript()
        script.connect()
        let (first, subscribe) = try script.add(.channel("feed", eventName: nil, authorization: nil))
        #expect(subscribe.sent == [#"{"event":"pusher:subscribe","data":{"channel":"feed"}}"#])
        let (second, again) = try script.add(.channel("feed", eventName: "x", authorization: nil))
        #expect(again.sent.isEmpty)
        #expect(script.engine.consumerCount(on: "feed") == 2)
        _ = script.receive(EngineScript.succeeded("feed"))
        #expect(
            script.engine.removeConsumer(first) == [
                .finishConsumer(first, error: nil), .consumersChanged(channel: "feed"),
            ])
        #expect(
            script.engine.removeConsumer(second).sent == [#"{"event":"pusher:unsubscribe","data":{"channel":"feed"}}"#])
        #expect(script.engine.removeConsumer(second).isEmpty)
    }

    @Test(
        "channels are validated before anything is sent",
        arguments: [
            ("", PusherError.Code.invalidChannelName, true),
            ("#server-to-user-1", .invalidChannelName, true),
            ("private-orders", .authorizationRequired, false),
            ("presence-room", .authorizationRequired, false),
        ]
    )
    func validation(name: String, code: PusherError.Code, withAuthorizer: Bool) {
        var script = EngineScript(hasAuthorizer: withAuthorizer)
        script.connect()
        #expect(throws: PusherError.self) { try script.add(.channel(name, eventName: nil, authorization: nil)) }
        do {
            _ = try script.add(.channel(name, eventName: nil, authorization: nil))
        } catch {
            #expect(error.code == code)
        }
        #expect(script.engine.channelNames.isEmpty)
    }

    @Test("a refused subscription finishes that channel's consumers with the error; other channels keep flowing")
    func refusedSubscription() throws {
        var script = EngineScript()
        script.connect()
        let refused = try script.add(.channel("a", eventName: nil, authorization: nil)).id
        let kept = try script.add(.channel("b", eventName: nil, authorization: nil)).id
        _ = script.receive(EngineScript.succeeded("b"))
        let actions = script.receive(
            #"{"event":"pusher:subscription_error","channel":"a","data":{"type":"AuthError","error":"no","status":401}}"#
        )
        let finished = actions.compactMap {
            if case .finishConsumer(let id, let error?) = $0 { (id, error.code) } else { nil }
        }
        #expect(finished.map(\.0) == [refused])
        #expect(finished.map(\.1) == [.subscriptionFailed])
        #expect(script.receive(EngineScript.event("e", on: "b")).deliveries == [Delivery(kept, "e", "{}")])
    }

    @Test("a provided authorization is used once, for its socket id; after a reconnect the authorizer is asked")
    func providedAuthorizationOnce() throws {
        var script = EngineScript()
        script.connect(socketID: "1.1")
        let provided = ProvidedAuthorization(ChannelAuthorization(auth: "key:given"), socketID: "1.1")
        let (_, actions) = try script.add(.channel("private-orders", eventName: nil, authorization: provided))
        #expect(
            actions.sent == [#"{"event":"pusher:subscribe","data":{"channel":"private-orders","auth":"key:given"}}"#])
        let closed = script.engine.transportClosed(
            generation: script.generation, closeCode: 4200, reason: nil, at: script.now, random: 0)
        #expect(closed.contains(.openConnection(generation: script.generation.next)), "4200 reconnects at once")
        let reconnect = script.connect(socketID: "2.2")
        #expect(reconnect.contains(.authorize(channel: "private-orders", socketID: "2.2")))
        #expect(reconnect.sent.isEmpty)
    }

    @Test("a presence consumer that joins later gets the current members first")
    func presenceSnapshotOnJoin() throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.presence("presence-room", authorization: nil))
        _ = script.engine.authorized(
            channel: "presence-room",
            socketID: "1.1",
            result: .success(ChannelAuthorization(auth: "key:sig", channelData: #"{"user_id":"1"}"#))
        )
        _ = script.receive(
            #"{"event":"pusher_internal:subscription_succeeded","channel":"presence-room","data":"{\"presence\":{\"ids\":[\"1\"],\"hash\":{\"1\":null},\"count\":1}}"}"#
        )
        let (late, actions) = try script.add(.presence("presence-room", authorization: nil))
        let snapshots = actions.compactMap {
            if case .deliverPresence(.snapshot(let snapshot), late) = $0 { snapshot } else { nil }
        }
        #expect(snapshots.map(\.members.count) == [1])
        #expect(snapshots.first?.me?.userID == "1")
    }

    @Test("after the run ended, consumers are refused and every consumer was finished")
    func runEnded() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channel("feed", eventName: nil, authorization: nil)).id
        _ = script.receive(EngineScript.succeeded("feed"))
        #expect(script.engine.subscribedChannelCount == 1)
        let actions = script.engine.runEnded(at: script.now)
        #expect(actions.contains(.finishConsumer(id, error: nil)))
        #expect(script.engine.subscribedChannelCount == 0, "nothing is subscribed once the run is over")
        #expect(try script.engine.addConsumer(.all, at: script.now) == nil)
    }
}

@Suite("Client engine: one consumer of several channels")
struct ClientEngineMultiChannelTests {
    @Test("one consumer of several channels gets each event once; a refused channel leaves the others flowing")
    func severalChannels() throws {
        var script = EngineScript()
        script.connect()
        let (id, actions) = try script.add(.channels(["a", "b", "a"], eventName: nil))
        #expect(actions.sent.count == 2, "one subscribe per distinct channel")
        _ = script.receive(EngineScript.succeeded("a"), EngineScript.succeeded("b"))
        #expect(
            script.receive(EngineScript.event("e", on: "a"), EngineScript.event("e", on: "b")).deliveries == [
                Delivery(id, "e", "{}"), Delivery(id, "e", "{}"),
            ])
        let refusedA = script.receive(#"{"event":"pusher:subscription_error","channel":"a","data":{"error":"no"}}"#)
        #expect(!refusedA.contains { if case .finishConsumer = $0 { true } else { false } }, "b is still followed")
        #expect(script.receive(EngineScript.event("e", on: "b")).deliveries == [Delivery(id, "e", "{}")])
        let refusedB = script.receive(#"{"event":"pusher:subscription_error","channel":"b","data":{"error":"no"}}"#)
        #expect(
            refusedB.contains {
                if case .finishConsumer(id, let error?) = $0 { error.code == .subscriptionFailed } else { false }
            })
    }

    @Test("an invalid name among several subscribes nothing")
    func invalidAmongSeveral() {
        var script = EngineScript(hasAuthorizer: false)
        script.connect()
        #expect(throws: PusherError.self) {
            try script.add(.channels(["ok", "private-no-authorizer"], eventName: nil))
        }
        #expect(script.engine.channelNames.isEmpty)
    }

    @Test("removing the consumer unsubscribes every one of its channels")
    func removal() throws {
        var script = EngineScript()
        script.connect()
        let id = try script.add(.channels(["a", "b"], eventName: nil)).id
        _ = script.receive(EngineScript.succeeded("a"), EngineScript.succeeded("b"))
        #expect(script.engine.removeConsumer(id).sent.count == 2)
        #expect(script.engine.channelNames.isEmpty)
    }
}
