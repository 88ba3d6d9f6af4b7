// SPDX-License-Identifier: MIT

import PusherCore

// The one place where the client's timers are kept.
//
// The engine asks for every timer with `scheduleTimer(id, deadline:)` and withdraws it with
// `cancelTimer(id)`: the handshake, activity, pong and close timeouts of each socket, the reconnect
// delay, the client-event pacing, and the timeout of every authorizer and user-authenticator call.
// The driver keeps them in one `TimerSchedule`, and its earliest deadline in a `WaitableState`
// (`timerAlarm`). A child task of the timer task sleeps on the injected clock until that deadline
// (`PusherClient+Timers.swift`); when it wakes, the driver fires every due timer into the engine,
// in deadline order. Only a deadline earlier than the one it sleeps to cancels the sleeper (and
// the timer task starts another); after a later one, or none, it wakes, finds nothing due, and
// sleeps on to the new earliest. The sleeper is woken or cancelled from the run loop (`Command.wake`),
// never under the engine lock, as are the calls the engine gives up.
extension ClientDriver {
    mutating func scheduleTimer(_ timer: TimerID, at deadline: Duration) {
        self.timers.schedule(timer, at: deadline)
        self.rearmTimerTask()
    }

    mutating func cancelTimer(_ timer: TimerID) {
        guard self.timers.cancel(timer) else { return }
        self.rearmTimerTask()
    }

    /// Hands the earliest deadline to the timer task when it changed. The alarm cancels the sleeper
    /// only when it sleeps to a later deadline (see `PusherClient.runSleeper()`).
    private mutating func rearmTimerTask() {
        let earliest = self.timers.earliest
        guard earliest != self.armedDeadline else { return }
        self.armedDeadline = earliest
        // Woken (the sleeper cancelled) by the run loop, where no lock is held: the clock's
        // cancellation handler is not run under the engine lock.
        if self.timerAlarm.updateWithoutWaking({ $0.deadline = earliest }) {
            let alarm = self.timerAlarm
            self.commands.yield(.wake { alarm.wake() })
        }
        guard !self.earliestDeadlineWaiters.isEmpty else { return }
        self.earliestDeadlineWaiters.removeAll { waiter in
            guard waiter.deadline == earliest else { return false }
            waiter.signal.fire()
            return true
        }
    }

    /// Fires every timer due now into the engine, earliest first, one at a time: what one timer's
    /// actions cancel does not fire.
    mutating func fireDueTimers() {
        let now = self.clock.now
        while let timer = self.timers.removeFirstDue(at: now) {
            self.perform(self.engine.timerFired(timer, at: now, random: .random(in: 0..<1)))
        }
        self.rearmTimerTask()
    }

    // MARK: Calls

    /// The engine asked for an authorizer or user-authenticator call whose timeout is `timer`:
    /// returns what cancels it, kept as the driver's handle in the engine's table of calls.
    mutating func startCall(_ timer: TimerID) -> CallCancellation {
        let cancellation = CallCancellation(nil)
        self.engine.attach(cancellation, toCall: timer)
        return cancellation
    }

    /// The engine gave up on the call that `timer` timed (`call` is its record): it is cancelled,
    /// and recorded as failed.
    mutating func cancelCall(_ timer: TimerID, reason: PusherError, call: OutstandingCall) {
        let duration = self.clock.now - call.start
        switch timer {
        case .authorization(let channel, _):
            self.metrics?.authorization(
                channel: channel.rawValue, isKeyReload: false, succeeded: false, duration: duration)
        case .keyReload(let channel, _):
            self.metrics?.authorization(
                channel: channel.rawValue, isKeyReload: true, succeeded: false, duration: duration)
        case .userAuthentication:
            self.metrics?.signIn(succeeded: false, duration: duration)
        default:
            break
        }
        // The call's task is cancelled by the run loop, where no lock is held: the authorizer's
        // cancellation handlers are user code, which must not run under the engine lock.
        if let cancellation = call.handle as? CallCancellation, cancellation.updateWithoutWaking({ $0 = reason }) {
            self.commands.yield(.wake { cancellation.wake() })
        }
    }

    /// When the call that `timer` times started, if `cancellation` is still the one under way; nil
    /// means its answer is dropped (the engine gave up on it, or it was superseded).
    func finishCall(_ timer: TimerID, cancellation: CallCancellation) -> Duration? {
        self.engine.start(ofCall: timer, handle: cancellation)
    }
}
