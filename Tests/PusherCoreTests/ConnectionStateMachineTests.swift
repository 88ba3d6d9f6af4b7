// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// The connection state machine on its own: events in, actions out, time as plain numbers.
@Suite("Connection state machine")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    static let noJitter = Machine.Configuration(backoff: Backoff(jitter: 0))

    /// A machine connected on generation 1 at t = 0.
    static func connected(_ configuration: Machine.Configuration = noJitter, serverTimeout: Duration? = nil) -> Machine
    {
        var machine = Machine(configuration: configuration)
        _ = machine.connect(at: .zero)
        _ = machine.transportOpened(generation: 1, at: .zero)
        _ = machine.connectionEstablished(generation: 1, socketID: "1.1", activityTimeout: serverTimeout, at: .zero)
        return machine
    }

    @Test("connected only after both socket open and connection_established, in either order")
    func handshakeOrder() {
        var openFirst = Machine()
        #expect(
            openFirst.connect(at: .zero) == [
                .openConnection(generation: 1), .publishState(.connecting(attempt: 0)),
                .scheduleTimer(.handshake(1), deadline: .seconds(10)),
            ])
        #expect(openFirst.transportOpened(generation: 1, at: .zero) == [])
        #expect(openFirst.publicState == .connecting(attempt: 0))
        let actions = openFirst.connectionEstablished(generation: 1, socketID: "9.9", activityTimeout: nil, at: .zero)
        #expect(
            actions == [
                .publishState(.connected(socketID: "9.9")), .connectionReady(socketID: "9.9"),
                .cancelTimer(.handshake(1)), .scheduleTimer(.activity(1), deadline: .seconds(120)),
            ])

        var establishedFirst = Machine()
        _ = establishedFirst.connect(at: .zero)
        #expect(
            establishedFirst.connectionEstablished(generation: 1, socketID: "9.9", activityTimeout: nil, at: .zero)
                == [])
        #expect(establishedFirst.publicState == .connecting(attempt: 0))
        #expect(
            establishedFirst.transportOpened(generation: 1, at: .zero).contains(
                .publishState(.connected(socketID: "9.9"))))
    }

    @Test(
        "effective activity timeout is the smaller of client and server values; none sent keeps the client's",
        arguments: [
            (Duration?.none, Duration.seconds(120)), (.seconds(30), .seconds(30)), (.seconds(500), .seconds(120)),
        ]
    )
    func activityTimeout(server: Duration?, effective: Duration) {
        var machine = Machine()
        _ = machine.connect(at: .zero)
        _ = machine.transportOpened(generation: 1, at: .zero)
        let actions = machine.connectionEstablished(
            generation: 1, socketID: "1.1", activityTimeout: server, at: .seconds(1))
        #expect(actions.last == .scheduleTimer(.activity(1), deadline: .seconds(1) + effective))
    }

    @Test("a ping is sent after the activity timeout of silence; any message postpones it")
    func ping() {
        var machine = Self.connected()
        machine.messageReceived(at: .seconds(100))
        // The activity timer is not moved per message: when it fires, it is scheduled again from
        // the last message.
        #expect(
            machine.timerFired(.activity(1), at: .seconds(120), random: 0) == [
                .scheduleTimer(.activity(1), deadline: .seconds(220))
            ])
        #expect(
            machine.timerFired(.activity(1), at: .seconds(220), random: 0) == [
                .send(generation: 1, text: OutboundMessage.ping), .scheduleTimer(.pong(1), deadline: .seconds(250)),
            ])
        // The pong (any message) arrives: back to the activity timer.
        machine.messageReceived(at: .seconds(221))
        #expect(
            machine.timerFired(.pong(1), at: .seconds(250), random: 0) == [
                .scheduleTimer(.activity(1), deadline: .seconds(341))
            ])
        // A timer that is not the socket's current one (already replaced) changes nothing.
        #expect(machine.timerFired(.pong(1), at: .seconds(260), random: 0) == [])
        #expect(machine.timerFired(.activity(7), at: .seconds(400), random: 0) == [])
    }

    @Test("no reply within the pong timeout drops the socket and reconnects at once")
    func pongTimeout() {
        var machine = Self.connected()
        _ = machine.timerFired(.activity(1), at: .seconds(120), random: 0)
        // Fired early (a clock that rounds), it waits on.
        #expect(
            machine.timerFired(.pong(1), at: .seconds(149), random: 0) == [
                .scheduleTimer(.pong(1), deadline: .seconds(150))
            ])
        let actions = machine.timerFired(.pong(1), at: .seconds(150), random: 0)
        #expect(actions.first == .abortConnection(generation: 1))
        // The new socket's handshake timer is the only liveness timer: the pong timer fired already.
        #expect(!actions.contains(.cancelTimer(.pong(1))))
        #expect(actions.last == .scheduleTimer(.handshake(2), deadline: .seconds(160)))
        #expect(actions.contains(.connectionLost))
        #expect(actions.contains(.openConnection(generation: 2)))
        guard case .reconnecting(1, .zero, let cause)? = actions.compactMap(\.publishedState).first else {
            Issue.record("expected an immediate reconnect, got \(actions)")
            return
        }
        #expect(cause.code == .pongTimeout)
    }

    @Test("checkConnection pings at once and starts the pong timeout from now")
    func checkConnection() {
        var machine = Self.connected()
        #expect(
            machine.checkConnection(at: .seconds(5)) == [
                .send(generation: 1, text: OutboundMessage.ping), .cancelTimer(.activity(1)),
                .scheduleTimer(.pong(1), deadline: .seconds(35)),
            ])
        #expect(machine.checkConnection(at: .seconds(6)) == [])
        #expect(machine.timerFired(.activity(1), at: .seconds(120), random: 0) == [])
        #expect(machine.timerFired(.pong(1), at: .seconds(35), random: 0).first == .abortConnection(generation: 1))
        var idle = Machine()
        #expect(idle.checkConnection(at: .zero) == [])
    }

    @Test("pusher:ping is answered with pusher:pong")
    func serverPing() {
        let machine = Self.connected()
        #expect(machine.pingReceived(generation: 1) == [.send(generation: 1, text: OutboundMessage.pong)])
        #expect(machine.pingReceived(generation: 7) == [])
    }

    @Test("4000–4099 closes are terminal and carry the code", arguments: [4000, 4001, 4009, 4099])
    func terminalCodes(code: Int) {
        var machine = Self.connected()
        let actions = machine.transportClosed(
            generation: 1, closeCode: code, reason: "nope", at: .seconds(1), random: 0)
        #expect(!actions.contains { if case .openConnection = $0 { true } else { false } })
        #expect(!actions.contains { if case .scheduleTimer(.reconnect, _) = $0 { true } else { false } })
        guard case .failed(let error) = machine.publicState else {
            Issue.record("expected failed, got \(machine.publicState)")
            return
        }
        #expect(error.closeCode == code)
        #expect(error.message.contains("nope"))
    }

    @Test("4100–4199: first retry no sooner than 1 s, then growing to the cap")
    func overCapacity() {
        var machine = Self.connected(
            Machine.Configuration(
                backoff: Backoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(3), jitter: 0)))
        var delays: [Duration] = []
        var generation: Generation = 1
        for step in 0..<6 {
            let actions = machine.transportClosed(
                generation: generation, closeCode: 4100, reason: nil, at: .seconds(step), random: 0)
            guard case .scheduleTimer(.reconnect(let timer), let deadline)? = actions.last else {
                Issue.record("expected a timer, got \(actions)")
                return
            }
            delays.append(deadline - .seconds(step))
            let reopened = machine.timerFired(.reconnect(timer), at: .seconds(step), random: 0)
            guard case .openConnection(let next)? = reopened.first else { return }
            generation = next
        }
        #expect(delays == [.seconds(1), .seconds(1), .seconds(1), .seconds(1), .milliseconds(1_600), .seconds(3)])
    }

    @Test("4200–4299: reconnect with no delay, without advancing the backoff")
    func reconnectNow() {
        var machine = Self.connected()
        var actions = machine.transportClosed(generation: 1, closeCode: 1006, reason: nil, at: .zero, random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(2), deadline: .seconds(1)))
        actions = machine.timerFired(.reconnect(2), at: .seconds(1), random: 0)
        #expect(actions.first == .openConnection(generation: 3))
        actions = machine.transportClosed(generation: 3, closeCode: 4200, reason: nil, at: .seconds(1), random: 0)
        #expect(actions.contains(.openConnection(generation: 4)))
        #expect(machine.publicState == .connecting(attempt: 2))
        // The next ordinary failure continues the backoff at step 2 (2 s), not step 3.
        actions = machine.transportClosed(generation: 4, closeCode: nil, reason: nil, at: .seconds(1), random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(5), deadline: .seconds(3)))
    }

    @Test("4200–4299 again and again: at once only the first time, then growing delays")
    func repeatedReconnectNow() {
        var machine = Self.connected()
        var generation: Generation = 1
        var delays: [Duration] = []
        for step in 0..<5 {
            let now = Duration.seconds(step)
            // Each new socket completes the handshake and is closed with 4200 at once.
            if step > 0 {
                _ = machine.transportOpened(generation: generation, at: now)
                _ = machine.connectionEstablished(
                    generation: generation, socketID: "1.\(step)", activityTimeout: nil, at: now)
            }
            let actions = machine.transportClosed(
                generation: generation, closeCode: 4200, reason: "reconnect", at: now, random: 0)
            if let next = actions.lazy.compactMap({ if case .openConnection(let next) = $0 { next } else { nil } })
                .first
            {
                delays.append(.zero)
                generation = next
            } else if case .scheduleTimer(.reconnect(let timer), let deadline)? = actions.last {
                let delay = deadline - now
                delays.append(delay)
                guard
                    case .openConnection(let next)? = machine.timerFired(.reconnect(timer), at: now + delay, random: 0)
                        .first
                else { return }
                generation = next
            } else {
                Issue.record("expected a reconnect, got \(actions)")
            }
        }
        #expect(delays == [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
    }

    @Test("a handshake that is closed at once does not reset the backoff")
    func closedRightAfterHandshake() {
        var machine = Self.connected()
        var generation: Generation = 1
        var delays: [Duration] = []
        var now = Duration.zero
        for step in 0..<5 {
            if step > 0 {
                _ = machine.transportOpened(generation: generation, at: now)
                _ = machine.connectionEstablished(
                    generation: generation, socketID: "1.\(step)", activityTimeout: nil, at: now)
            }
            let actions = machine.transportClosed(
                generation: generation, closeCode: 1006, reason: nil, at: now, random: 0)
            guard case .scheduleTimer(.reconnect(let timer), let deadline)? = actions.last else {
                Issue.record("expected a timer, got \(actions)")
                return
            }
            delays.append(deadline - now)
            now = deadline
            guard case .openConnection(let next)? = machine.timerFired(.reconnect(timer), at: now, random: 0).first
            else {
                return
            }
            generation = next
        }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
    }

    @Test("the counter resets after a connection stayed up for resetAfter, or delivered a channel event and settled")
    func resetAfterHealthyConnection() {
        // Two failures in a row, then a connection that stays up 10 s.
        var machine = Self.connected()
        _ = machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .zero, random: 0)
        _ = machine.timerFired(.reconnect(2), at: .seconds(1), random: 0)
        _ = machine.transportFailed(
            generation: 3, error: PusherError(.transportFailed, "refused"), at: .seconds(1), random: 0)
        #expect(
            machine.publicState
                == .reconnecting(attempt: 2, delay: .seconds(2), cause: PusherError(.transportFailed, "refused")))
        _ = machine.timerFired(.reconnect(4), at: .seconds(3), random: 0)
        _ = machine.transportOpened(generation: 5, at: .seconds(3))
        _ = machine.connectionEstablished(generation: 5, socketID: "2.2", activityTimeout: nil, at: .seconds(3))
        var actions = machine.transportClosed(generation: 5, closeCode: 1006, reason: nil, at: .seconds(13), random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(6), deadline: .seconds(14)))
        #expect(machine.publicState.description.hasPrefix("reconnecting(attempt: 1"))

        // Up for only 6 s: not reset.
        _ = machine.timerFired(.reconnect(6), at: .seconds(14), random: 0)
        _ = machine.transportOpened(generation: 7, at: .seconds(14))
        _ = machine.connectionEstablished(generation: 7, socketID: "3.3", activityTimeout: nil, at: .seconds(14))
        actions = machine.transportClosed(generation: 7, closeCode: 1006, reason: nil, at: .seconds(20), random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(8), deadline: .seconds(22)))

        // A channel event arrived, but the connection ended 1 s later (under the 2 s settle time):
        // not reset, the backoff goes on growing.
        _ = machine.timerFired(.reconnect(8), at: .seconds(22), random: 0)
        _ = machine.transportOpened(generation: 9, at: .seconds(22))
        _ = machine.connectionEstablished(generation: 9, socketID: "4.4", activityTimeout: nil, at: .seconds(22))
        machine.channelEventReceived()
        actions = machine.transportClosed(generation: 9, closeCode: 1006, reason: nil, at: .seconds(23), random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(10), deadline: .seconds(27)))

        // A channel event and 2 s up: reset.
        _ = machine.timerFired(.reconnect(10), at: .seconds(27), random: 0)
        _ = machine.transportOpened(generation: 11, at: .seconds(27))
        _ = machine.connectionEstablished(generation: 11, socketID: "5.5", activityTimeout: nil, at: .seconds(27))
        machine.channelEventReceived()
        actions = machine.transportClosed(generation: 11, closeCode: 1006, reason: nil, at: .seconds(29), random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(12), deadline: .seconds(30)))
    }

    @Test("a protocol violation drops the socket; once it is gone the client backs off with the violation as cause")
    func protocolViolation() {
        var machine = Machine(configuration: Self.noJitter)
        _ = machine.connect(at: .zero)
        let violation = PusherError(.protocolViolation, "bad socket_id")
        #expect(machine.protocolViolation(generation: 1, error: violation) == [.abortConnection(generation: 1)])
        #expect(machine.isDropping(1))
        #expect(machine.protocolViolation(generation: 1, error: violation) == [])
        let actions = machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .zero, random: 0)
        #expect(actions.last == .scheduleTimer(.reconnect(2), deadline: .seconds(1)))
        #expect(machine.publicState == .reconnecting(attempt: 1, delay: .seconds(1), cause: violation))
        #expect(!machine.isDropping(1))
    }

    @Test("a second connection_established on a connected socket changes nothing")
    func duplicateEstablished() {
        var machine = Self.connected()
        #expect(machine.isConnected(1))
        #expect(
            machine.connectionEstablished(generation: 1, socketID: "other", activityTimeout: nil, at: .seconds(1)) == []
        )
        #expect(machine.publicState == .connected(socketID: "1.1"))
    }

    @Test("an invalid configuration fails at once, without a socket or a retry; connect() may try again")
    func configurationInvalid() {
        var machine = Machine()
        let error = PusherError(.invalidConfiguration, "invalid port 0")
        #expect(machine.configurationInvalid(error, at: .zero) == [.publishState(.failed(error))])
        #expect(machine.publicState == .failed(error))
        #expect(machine.connect(at: .seconds(1)).first == .openConnection(generation: 1))
    }

    @Test("the attempt limit ends in failed; connect() afterwards starts afresh")
    func maximumAttempts() {
        var machine = Self.connected(Machine.Configuration(backoff: Backoff(jitter: 0, maximumAttempts: 2)))
        var generation: Generation = 1
        for _ in 0..<2 {
            let actions = machine.transportClosed(
                generation: generation, closeCode: nil, reason: nil, at: .zero, random: 0)
            guard case .scheduleTimer(.reconnect(let timer), _)? = actions.last else { return }
            guard case .openConnection(let next)? = machine.timerFired(.reconnect(timer), at: .zero, random: 0).first
            else { return }
            generation = next
        }
        _ = machine.transportClosed(generation: generation, closeCode: nil, reason: nil, at: .zero, random: 0)
        guard case .failed(let error) = machine.publicState else {
            Issue.record("expected failed, got \(machine.publicState)")
            return
        }
        #expect(error.code == .reconnectAttemptsExhausted)
        #expect(machine.connect(at: .zero).contains(.publishState(.connecting(attempt: 0))))
    }

    @Test("disconnect() cancels the pending retry; late timer and socket events change nothing")
    func disconnectWhileWaiting() {
        var machine = Self.connected()
        _ = machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .zero, random: 0)
        #expect(machine.disconnect(at: .zero) == [.cancelTimer(.reconnect(2)), .publishState(.disconnected)])
        #expect(machine.timerFired(.reconnect(2), at: .seconds(5), random: 0) == [])
        #expect(machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .seconds(5), random: 0) == [])
        #expect(machine.publicState == .disconnected)
    }

    @Test("connect() while waiting cancels the reconnect timer and opens at once; the old timer does nothing")
    func connectWhileWaiting() {
        var machine = Self.connected()
        _ = machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .zero, random: 0)
        #expect(
            machine.connect(at: .seconds(0.5)) == [
                .cancelTimer(.reconnect(2)), .openConnection(generation: 3), .publishState(.connecting(attempt: 1)),
                .scheduleTimer(.handshake(3), deadline: .seconds(10.5)),
            ])
        #expect(machine.timerFired(.reconnect(2), at: .seconds(1), random: 0) == [])
        #expect(machine.activeGeneration == 3)
    }

    @Test("disconnect() while connecting drops a socket still in its handshake at once")
    func disconnectBeforeSocketOpen() {
        var connecting = Machine()
        _ = connecting.connect(at: .zero)
        #expect(
            connecting.disconnect(at: .seconds(1)) == [
                .abortConnection(generation: 1), .cancelTimer(.handshake(1)),
                .scheduleTimer(.close(1), deadline: .seconds(6)), .publishState(.disconnected),
            ])
        #expect(connecting.timerFired(.handshake(1), at: .seconds(10), random: 0) == [])
        #expect(
            connecting.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .seconds(1), random: 0) == [
                .cancelTimer(.close(1))
            ])
        #expect(connecting.publicState == .disconnected)
    }

    @Test("disconnect() while connecting or connected closes the open socket, with a close timeout")
    func disconnectWhileConnecting() {
        var connecting = Machine()
        _ = connecting.connect(at: .zero)
        _ = connecting.transportOpened(generation: 1, at: .zero)
        #expect(
            connecting.disconnect(at: .seconds(1)) == [
                .closeConnection(generation: 1), .cancelTimer(.handshake(1)),
                .scheduleTimer(.close(1), deadline: .seconds(6)), .publishState(.disconnected),
            ])
        #expect(
            connecting.connectionEstablished(generation: 1, socketID: "x", activityTimeout: nil, at: .seconds(1)) == [])
        #expect(
            connecting.timerFired(.close(1), at: .seconds(2), random: 0) == [
                .scheduleTimer(.close(1), deadline: .seconds(6))
            ])
        #expect(connecting.timerFired(.close(1), at: .seconds(6), random: 0) == [.abortConnection(generation: 1)])
        #expect(connecting.timerFired(.close(1), at: .seconds(7), random: 0) == [])
        #expect(
            connecting.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .seconds(7), random: 0) == [])
        #expect(connecting.publicState == .disconnected)

        var connected = Self.connected()
        #expect(
            connected.disconnect(at: .zero) == [
                .connectionLost, .closeConnection(generation: 1), .cancelTimer(.activity(1)),
                .scheduleTimer(.close(1), deadline: .seconds(5)), .publishState(.disconnected),
            ])
        #expect(
            connected.transportClosed(generation: 1, closeCode: 1000, reason: nil, at: .zero, random: 0) == [
                .cancelTimer(.close(1))
            ])
        #expect(connected.publicState == .disconnected)
    }

    @Test("a socket that never completes the handshake times out and backs off")
    func handshakeTimeout() {
        var machine = Machine(configuration: Self.noJitter)
        #expect(machine.connect(at: .zero).last == .scheduleTimer(.handshake(1), deadline: .seconds(10)))
        let actions = machine.timerFired(.handshake(1), at: .seconds(10), random: 0)
        #expect(actions.first == .abortConnection(generation: 1))
        #expect(actions.last == .scheduleTimer(.reconnect(2), deadline: .seconds(11)))
        #expect(machine.timerFired(.handshake(1), at: .seconds(11), random: 0) == [])
        // The socket, aborted, ends later: nothing more happens.
        #expect(machine.transportClosed(generation: 1, closeCode: nil, reason: nil, at: .seconds(11), random: 0) == [])
    }

    @Test("shutdown finishes once the last socket is closed")
    func shutdown() {
        var machine = Self.connected()
        let actions = machine.shutdown(at: .zero)
        #expect(!actions.contains(.finished))
        #expect(
            machine.transportClosed(generation: 1, closeCode: 1000, reason: nil, at: .zero, random: 0) == [
                .cancelTimer(.close(1)), .finished,
            ])
        #expect(machine.connect(at: .zero) == [])

        var idle = Machine()
        #expect(idle.shutdown(at: .zero) == [.publishState(.disconnected), .finished])
    }
}

extension ConnectionStateMachine.Action {
    var publishedState: ConnectionState? {
        if case .publishState(let state) = self { return state }
        return nil
    }
}
