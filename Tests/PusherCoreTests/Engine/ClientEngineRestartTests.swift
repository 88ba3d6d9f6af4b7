// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// ``ClientEngine/restart(at:)``: what a restart means for subscriptions.
@Suite("Client engine: restart")
struct ClientEngineRestartTests {
    @Test("a restart keeps the consumers and subscribes their channels again on the new connection")
    func restartResubscribes() throws {
        var script = EngineScript()
        script.connect(socketID: "1.1")
        _ = try script.add(.channel("news", eventName: nil, authorization: nil))
        _ = script.receive(#"{"event":"pusher_internal:subscription_succeeded","channel":"news","data":"{}"}"#)
        let old = script.generation
        let restarted = script.engine.restart(at: script.now)
        #expect(restarted.contains(.closeConnection(generation: old)))
        #expect(restarted.contains(.openConnection(generation: old.next)))
        #expect(!restarted.contains { if case .finishConsumer = $0 { true } else { false } })
        #expect(script.engine.consumerCount(on: "news") == 1)
        script.generation = old.next
        var actions = script.engine.transportOpened(generation: script.generation, at: script.now)
        actions += script.receive(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"2.2\",\"activity_timeout\":120}"}"#)
        #expect(actions.sent.contains { $0.contains("pusher:subscribe") && $0.contains("news") })
    }
}
