// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// Floods that a hostile server can send, handled in linear time: with a copy of the state per
/// message these would take minutes, in place they take a fraction of a second.
@Suite("Engine floods")
struct ClientEngineFloodTests {
    @Test("100 000 members joining and 50 000 leaving a presence channel: the roster follows, changed in place")
    func presenceFlood() throws {
        var script = EngineScript(maximumPresenceMembers: 200_000)
        script.connect()
        let id = try script.add(.presence("presence-room", authorization: nil)).id
        _ = script.engine.authorized(
            channel: "presence-room",
            socketID: "1.1",
            result: .success(.init(auth: "k:s", channelData: #"{"user_id":"0"}"#))
        )
        _ = script.receive(
            #"{"event":"pusher_internal:subscription_succeeded","channel":"presence-room","data":"{\"presence\":{\"ids\":[\"0\"],\"hash\":{\"0\":null},\"count\":1}}"}"#
        )
        var frames: [InboundMessage] = []
        for member in 1...99_999 {
            frames.append(
                .text(
                    #"{"event":"pusher_internal:member_added","channel":"presence-room","data":"{\"user_id\":\"\#(member)\"}"}"#
                ))
        }
        for member in stride(from: 1, through: 99_999, by: 2) {
            frames.append(
                .text(
                    #"{"event":"pusher_internal:member_removed","channel":"presence-room","data":"{\"user_id\":\"\#(member)\"}"}"#
                ))
        }
        let actions = script.engine.received(frames, generation: script.generation, at: script.now)
        let notified = actions.filter { if case .deliverPresence(_, id) = $0 { true } else { false } }.count
        #expect(notified == frames.count)
        #expect(script.engine.members(of: "presence-room")?.count == 50_000)
    }

    @Test("past maximumPresenceMembers, joins are reported as limitExceeded and the roster stays at the cap")
    func presenceCap() throws {
        var script = EngineScript(maximumPresenceMembers: 100)
        script.connect()
        _ = try script.add(.presence("presence-room", authorization: nil))
        _ = script.engine.authorized(
            channel: "presence-room",
            socketID: "1.1",
            result: .success(.init(auth: "k:s", channelData: #"{"user_id":"0"}"#))
        )
        _ = script.receive(
            #"{"event":"pusher_internal:subscription_succeeded","channel":"presence-room","data":"{\"presence\":{\"ids\":[\"0\"],\"hash\":{\"0\":null},\"count\":1}}"}"#
        )
        let frames = (1...150).map { member in
            InboundMessage.text(
                #"{"event":"pusher_internal:member_added","channel":"presence-room","data":"{\"user_id\":\"\#(member)\"}"}"#
            )
        }
        let actions = script.engine.received(frames, generation: script.generation, at: script.now)
        let limits = actions.filter { if case .report(let error) = $0 { error.code == .limitExceeded } else { false } }
            .count
        #expect(limits == 51)
        #expect(script.engine.members(of: "presence-room")?.count == 100)
    }
}
