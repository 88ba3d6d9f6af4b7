// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: client events")
struct ClientEngineClientEventsTests {
    @Test("events wait for the subscription in order, then go out paced by the rate limit on the given time")
    func waitThenPace() throws {
        var script = EngineScript(clientEventRateLimit: 2)
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        _ = script.engine.authorized(
            channel: "private-chat", socketID: "1.1", result: .success(.init(auth: "key:sig")))
        for index in 1...3 {
            #expect(try script.engine.trigger("client-n", on: "private-chat", data: "\(index)", at: script.now).isEmpty)
        }
        let confirmed = script.receive(EngineScript.succeeded("private-chat"))
        #expect(confirmed.sent.map { $0.contains(#""data":"1""#) || $0.contains(#""data":"2""#) } == [true, true])
        #expect(confirmed.contains(.scheduleTimer(.clientEvents, deadline: script.now + .seconds(1))))
        script.now += .seconds(1)
        #expect(
            script.engine.timerFired(.clientEvents, at: script.now, random: 0).sent == [
                #"{"event":"client-n","channel":"private-chat","data":"3"}"#
            ])
    }

    @Test(
        "client events are refused with a typed error",
        arguments: [
            ("typing", "private-chat"),  // no client- prefix
            ("client-typing", "public-chat"),  // public channel
            ("client-typing", "private-encrypted-chat"),  // encrypted channel
            ("client-typing", "private-nobody"),  // no consumer
        ]
    )
    func refused(event: String, channel: String) throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        #expect {
            try script.engine.trigger(event, on: channel, data: "{}", at: script.now)
        } throws: { error in
            (error as? PusherError)?.code == .clientEventRejected
        }
    }

    @Test("a full waiting queue refuses more; unsubscribing reports what was dropped")
    func boundedQueue() throws {
        var script = EngineScript(clientEventQueueLimit: 2)
        script.connect()
        let id = try script.add(.channel("private-chat", eventName: nil, authorization: nil)).id
        _ = try script.engine.trigger("client-a", on: "private-chat", data: "1", at: script.now)
        _ = try script.engine.trigger("client-a", on: "private-chat", data: "2", at: script.now)
        #expect(throws: PusherError.self) {
            try script.engine.trigger("client-a", on: "private-chat", data: "3", at: script.now)
        }
        _ = script.engine.authorized(
            channel: "private-chat", socketID: "1.1", result: .success(.init(auth: "key:sig")))
        #expect(script.engine.removeConsumer(id).reported == [])
        // Removing before confirmation: the subscription is undone when it is confirmed.
        #expect(script.receive(EngineScript.succeeded("private-chat")).reported == [.clientEventRejected])
    }
}
