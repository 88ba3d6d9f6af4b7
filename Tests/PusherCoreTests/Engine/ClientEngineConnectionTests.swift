// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Client engine: connections")
struct ClientEngineConnectionTests {
    @Test("a lost connection forgets rosters and keys; the next one authorizes and subscribes afresh")
    func lostConnection() throws {
        var script = EngineScript()
        script.connect(socketID: "1.1")
        _ = try script.add(.presence("presence-room", authorization: nil))
        _ = script.engine.authorized(
            channel: "presence-room", socketID: "1.1",
            result: .success(.init(auth: "k:s", channelData: #"{"user_id":"1"}"#)))
        _ = script.receive(
            #"{"event":"pusher_internal:subscription_succeeded","channel":"presence-room","data":"{\"presence\":{\"ids\":[\"1\"],\"hash\":{\"1\":null},\"count\":1}}"}"#
        )
        #expect(script.engine.members(of: "presence-room")?.count == 1)
        let lost = script.engine.transportClosed(
            generation: script.generation, closeCode: nil, reason: nil, at: script.now, random: 0)
        #expect(lost.contains { if case .publishState(.reconnecting) = $0 { true } else { false } })
        #expect(script.engine.members(of: "presence-room") == nil)
        script.now += .seconds(1)
        let again = script.connect(socketID: "2.2")
        #expect(again.contains(.authorize(channel: "presence-room", socketID: "2.2")))
    }

    @Test("shutdown closes the socket gracefully, then the run can end")
    func gracefulShutdown() {
        var script = EngineScript()
        script.connect()
        let closing = script.engine.shutdown(at: script.now)
        #expect(closing.contains(.closeConnection(generation: script.generation)))
        #expect(!closing.contains(.finished))
        let closed = script.engine.transportClosed(
            generation: script.generation, closeCode: 1000, reason: nil, at: script.now, random: 0)
        #expect(closed.contains(.finished))
    }

    @Test("ping from the server is answered with pong; liveness is counted once per batch")
    func pingPong() {
        var script = EngineScript()
        script.connect()
        #expect(script.receive(#"{"event":"pusher:ping","data":{}}"#).sent == [#"{"event":"pusher:pong","data":{}}"#])
    }
}
