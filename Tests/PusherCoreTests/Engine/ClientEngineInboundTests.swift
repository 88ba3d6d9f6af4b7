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
        var frames: [InboundMessage] = [.text("not json"), .binary, .text(#"{"channel":"feed"}"#)]
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

    @Test(
        "a socket_id that is not digits.digits is a protocol violation: dropped, nothing authorized, back off",
        arguments: ["1.1:private-x", "1", ".1", "1.", "a.1", "1.1.1", "１.1", String(repeating: "1", count: 70) + ".1"]
    )
    func invalidSocketID(socketID: String) throws {
        var script = EngineScript()
        _ = try script.add(.channel("private-a", eventName: nil, authorization: nil))
        let actions = script.connect(socketID: socketID)
        #expect(actions.contains(.abortConnection(generation: 1)))
        #expect(!actions.contains { if case .authorize = $0 { true } else { false } })
        #expect(script.engine.state == .connecting(attempt: 0))
        // The rest of the socket's frames are not read, even a valid handshake.
        let later = script.receive(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"2.2\"}"}"#)
        #expect(later.isEmpty)
        let closed = script.engine.transportClosed(
            generation: 1, closeCode: nil, reason: nil, at: script.now, random: 0)
        #expect(closed.reported == [.protocolViolation])
        #expect(closed.contains(.scheduleTimer(.reconnect(2), deadline: script.now + .seconds(1))))
    }

    @Test("valid socket ids", arguments: ["1.1", "123456.7891011", "0.0"])
    func validSocketID(socketID: String) {
        #expect(ClientEngine.isValidSocketID(socketID))
    }

    @Test("only a confirmed channel's event and the settle time make a connection healthy")
    func healthNeedsDeliveredChannelEvent() throws {
        var script = EngineScript()
        let prices = try script.add(.channel("prices", eventName: nil, authorization: nil)).id
        _ = try script.add(.channel("pending", eventName: nil, authorization: nil))
        script.connect()
        // Per connection: the frames it delivers, and how long it stays up.
        let rounds: [([String], Duration)] = [
            ([], .seconds(3)),
            (
                [#"{"event":"x"}"#, EngineScript.event("x", on: "pending"), EngineScript.event("x", on: "nobody")],
                .seconds(3)
            ),
            ([EngineScript.event("p", on: "prices")], .milliseconds(500)),
            ([EngineScript.event("p", on: "prices")], .seconds(2)),
        ]
        var delays: [Duration] = []
        for (index, (frames, upFor)) in rounds.enumerated() {
            _ = script.receive(EngineScript.succeeded("prices"))
            let delivered = script.engine.received(
                frames.map { .text($0) }, generation: script.generation, at: script.now)
            if index >= 2 { #expect(delivered.deliveries.map(\.consumer) == [prices]) }
            script.now += upFor
            let closed = script.engine.transportClosed(
                generation: script.generation, closeCode: 1006, reason: nil, at: script.now, random: 0)
            guard case .scheduleTimer(.reconnect(let timer), let deadline)? = closed.last else {
                Issue.record("expected a reconnect timer, got \(closed)")
                return
            }
            delays.append(deadline - script.now)
            script.now = deadline
            guard
                case .openConnection(let next)? = script.engine.timerFired(.reconnect(timer), at: script.now, random: 0)
                    .first
            else { return }
            script.generation = next
            _ = script.engine.transportOpened(generation: next, at: script.now)
            _ = script.receive(
                #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(index + 2).1\"}"}"#)
        }
        // Only the last connection (an event of "prices", then 2 s up) was healthy.
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(1)])
    }

    @Test("frames of a socket that is no longer live are ignored")
    func staleGeneration() throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("feed", eventName: nil, authorization: nil))
        _ = script.receive(EngineScript.succeeded("feed"))
        let actions = script.engine.received(
            [.text(EngineScript.event("late", on: "feed"))], generation: Generation(script.generation.rawValue + 5),
            at: .zero)
        #expect(actions.isEmpty)
    }

    @Test("server-to-user events reach only the signed-in user's consumers")
    func serverToUser() throws {
        var script = EngineScript()
        script.connect()
        let user = try script.add(.user(eventName: nil)).id
        #expect(
            script.receive(EngineScript.event("hello", on: "#server-to-user-7")).deliveries.isEmpty, "not signed in")
        _ = script.engine.signIn(at: script.now)
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
