// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// Liveness while the client does not read its socket because a consumer is behind: the silence
/// is the client's own doing, so it neither pings nor drops the connection until it reads again.
@Suite("Connection state machine: reading paused")
struct ConnectionFlowControlTests {
    typealias Machine = ConnectionStateMachine

    @Test(
        "while reading is paused a ping goes out every activity timeout, no pong is awaited; silence counts again from the resume"
    )
    func activityWhilePaused() {
        var machine = ConnectionStateMachineTests.connected()
        machine.inboundPaused(generation: 1)
        // Two activity timeouts of silence: a ping each time (the server sees a live client), no
        // pong timer, the activity timer scheduled again.
        #expect(
            machine.timerFired(.activity(1), at: .seconds(120), random: 0) == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.activity(1), deadline: .seconds(240)),
            ])
        #expect(
            machine.timerFired(.activity(1), at: .seconds(240), random: 0) == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.activity(1), deadline: .seconds(360)),
            ])
        #expect(machine.publicState == .connected(socketID: "1.1"))
        // Reading again at 300 s: silence counts from then, so the timer at 360 s waits until 420 s.
        machine.inboundResumed(generation: 1, at: .seconds(300))
        #expect(
            machine.timerFired(.activity(1), at: .seconds(360), random: 0) == [
                .scheduleTimer(.activity(1), deadline: .seconds(420))
            ])
        #expect(
            machine.timerFired(.activity(1), at: .seconds(420), random: 0) == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.pong(1), deadline: .seconds(450)),
            ])
    }

    @Test("a ping whose pong waits unread behind a paused read does not drop the connection")
    func pongWhilePaused() {
        var machine = ConnectionStateMachineTests.connected()
        // The ping goes out, then a consumer falls behind before the pong is read.
        _ = machine.timerFired(.activity(1), at: .seconds(120), random: 0)
        machine.inboundPaused(generation: 1)
        let actions = machine.timerFired(.pong(1), at: .seconds(150), random: 0)
        #expect(
            actions == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.activity(1), deadline: .seconds(270)),
            ])
        #expect(machine.publicState == .connected(socketID: "1.1"))
        // Once reading again, an unanswered ping drops the socket as usual.
        machine.inboundResumed(generation: 1, at: .seconds(200))
        _ = machine.timerFired(.activity(1), at: .seconds(320), random: 0)
        #expect(machine.timerFired(.pong(1), at: .seconds(350), random: 0).first == .abortConnection(generation: 1))
    }

    @Test("a pause of another socket changes nothing for the active one")
    func otherGeneration() {
        var machine = ConnectionStateMachineTests.connected()
        machine.inboundPaused(generation: 7)
        #expect(
            machine.timerFired(.activity(1), at: .seconds(120), random: 0) == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.pong(1), deadline: .seconds(150)),
            ])
        #expect(machine.timerFired(.pong(1), at: .seconds(150), random: 0).first == .abortConnection(generation: 1))
    }
}
