// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// A close code 4000–4099 before `pusher:connection_established`, with more than one endpoint: the
/// refusal is one server's, so the next endpoint is tried; the client stops once each has refused
/// in a row.
@Suite("Connection refusals with fallback endpoints")
struct ConnectionRefusalFailoverTests {
    typealias Machine = ConnectionStateMachine

    /// A machine that tries `endpoints` endpoints, connecting (socket open, no handshake yet) on
    /// generation 1 at t = 0.
    static func connecting(endpoints: Int) -> Machine {
        var machine = Machine(configuration: ConnectionStateMachineTests.noJitter)
        machine.endpointsChanged(count: endpoints)
        _ = machine.connect(at: .zero)
        _ = machine.transportOpened(generation: 1, at: .zero)
        return machine
    }

    /// Refuses the attempt of `generation` with 4001 at `now`; returns the generation of the next
    /// attempt once its reconnect timer has fired, or nil when the machine did not reconnect.
    static func refuse(_ machine: inout Machine, generation: Generation, at now: Duration) -> Generation? {
        let actions = machine.transportClosed(
            generation: generation, closeCode: 4001, reason: "App key not in this cluster", at: now, random: 0)
        for action in actions {
            guard case .scheduleTimer(.reconnect(let timer), let deadline) = action else { continue }
            return Self.open(
                &machine, after: machine.timerFired(.reconnect(timer), at: deadline, random: 0), at: deadline)
        }
        return nil
    }

    /// Opens the socket that `actions` ask for; returns its generation.
    static func open(_ machine: inout Machine, after actions: [Machine.Action], at now: Duration) -> Generation? {
        for action in actions {
            guard case .openConnection(let generation) = action else { continue }
            _ = machine.transportOpened(generation: generation, at: now)
            return generation
        }
        return nil
    }

    @Test("one endpoint: a 4001 before the handshake stops the client, as the protocol says")
    func oneEndpoint() {
        var machine = Self.connecting(endpoints: 1)
        #expect(Self.refuse(&machine, generation: 1, at: .seconds(1)) == nil)
        guard case .failed(let error) = machine.publicState else {
            Issue.record("expected failed, got \(machine.publicState)")
            return
        }
        #expect(error.closeCode == 4001)
    }

    @Test("three endpoints: the first two refusals back off and move on; the third stops the client")
    func everyEndpointRefuses() {
        var machine = Self.connecting(endpoints: 3)
        let second = Self.refuse(&machine, generation: 1, at: .seconds(1))
        #expect(second != nil)
        let third = second.flatMap { Self.refuse(&machine, generation: $0, at: .seconds(5)) }
        #expect(third != nil)
        guard let third else { return }
        #expect(Self.refuse(&machine, generation: third, at: .seconds(10)) == nil)
        guard case .failed(let error) = machine.publicState else {
            Issue.record("expected failed, got \(machine.publicState)")
            return
        }
        #expect(error.closeCode == 4001)
    }

    @Test("a refusal backs off like any failed attempt (the delay is the backoff's)")
    func refusalBacksOff() {
        var machine = Self.connecting(endpoints: 2)
        let actions = machine.transportClosed(generation: 1, closeCode: 4001, reason: nil, at: .seconds(1), random: 0)
        #expect(actions.contains(.scheduleTimer(.reconnect(2), deadline: .seconds(2))))
        guard case .reconnecting(let attempt, let delay, let cause) = machine.publicState else {
            Issue.record("expected reconnecting, got \(machine.publicState)")
            return
        }
        #expect(attempt == 1)
        #expect(delay == .seconds(1))
        #expect(cause.closeCode == 4001)
    }

    @Test("an established connection resets the count: a later refusal moves on again")
    func connectedResetsTheCount() {
        var machine = Self.connecting(endpoints: 2)
        guard let second = Self.refuse(&machine, generation: 1, at: .seconds(1)) else {
            Issue.record("the first refusal stopped the client")
            return
        }
        _ = machine.connectionEstablished(generation: second, socketID: "1.2", activityTimeout: nil, at: .seconds(3))
        #expect(machine.publicState == .connected(socketID: "1.2"))
        // The connection drops; the next attempt is refused: there is still another endpoint to try.
        let actions = machine.transportClosed(
            generation: second, closeCode: 1006, reason: nil, at: .seconds(4), random: 0)
        guard
            let timer = actions.lazy.compactMap({ action -> Generation? in
                if case .scheduleTimer(.reconnect(let next), _) = action { next } else { nil }
            }).first
        else {
            Issue.record("no reconnect after the drop")
            return
        }
        guard
            let fourth = Self.open(
                &machine, after: machine.timerFired(.reconnect(timer), at: .seconds(10), random: 0), at: .seconds(10))
        else {
            Issue.record("the reconnect opened no socket")
            return
        }
        #expect(Self.refuse(&machine, generation: fourth, at: .seconds(11)) != nil)
    }

    @Test("a 4001 on an established connection stops the client, fallbacks or not")
    func refusalAfterTheHandshake() {
        var machine = Self.connecting(endpoints: 3)
        _ = machine.connectionEstablished(generation: 1, socketID: "1.1", activityTimeout: nil, at: .zero)
        _ = machine.transportClosed(generation: 1, closeCode: 4001, reason: nil, at: .seconds(1), random: 0)
        guard case .failed = machine.publicState else {
            Issue.record("expected failed, got \(machine.publicState)")
            return
        }
    }
}
