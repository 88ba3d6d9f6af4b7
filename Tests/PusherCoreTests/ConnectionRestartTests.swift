// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// ``ConnectionStateMachine/restart(at:)``: the client switched endpoints and connects again at once.
@Suite("Connection restart")
struct ConnectionRestartTests {
    typealias Machine = ConnectionStateMachine

    @Test("connected: the ready connection is lost and closed, a new attempt opens at once from attempt 0")
    func restartConnected() {
        var machine = ConnectionStateMachineTests.connected()
        let actions = machine.restart(at: .seconds(5))
        #expect(
            actions == [
                .connectionLost, .closeConnection(generation: 1), .cancelTimer(.activity(1)),
                .scheduleTimer(.close(1), deadline: .seconds(10)), .openConnection(generation: 2),
                .publishState(.connecting(attempt: 0)), .scheduleTimer(.handshake(2), deadline: .seconds(15)),
            ])
        // The old socket's end only finishes its close; the new attempt goes on.
        #expect(
            machine.transportClosed(generation: 1, closeCode: 1000, reason: nil, at: .seconds(6), random: 0)
                == [.cancelTimer(.close(1))])
        #expect(machine.activeGeneration == 2)
    }

    @Test("waiting to reconnect: the delay is skipped and the attempt counter starts afresh")
    func restartWaiting() {
        var machine = ConnectionStateMachineTests.connected(ConnectionStateMachineTests.noJitter)
        _ = machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .seconds(1), random: 0)
        #expect(machine.publicState.description.hasPrefix("reconnecting(attempt: 1"))
        let actions = machine.restart(at: .seconds(1))
        #expect(
            actions == [
                .cancelTimer(.reconnect(2)), .openConnection(generation: 3), .publishState(.connecting(attempt: 0)),
                .scheduleTimer(.handshake(3), deadline: .seconds(11)),
            ])
    }

    @Test("idle (never connected, disconnected) and stopped: nothing happens")
    func restartIdle() {
        var fresh = Machine()
        #expect(fresh.restart(at: .zero) == [])
        var disconnected = ConnectionStateMachineTests.connected()
        _ = disconnected.disconnect(at: .zero)
        #expect(disconnected.restart(at: .zero) == [])
        #expect(disconnected.publicState == .disconnected)
    }
}
