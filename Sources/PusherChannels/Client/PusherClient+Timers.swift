// SPDX-License-Identifier: MIT

import PusherCore

// The one place where the client's timers run.
//
// The engine asks for every timer with `scheduleTimer(id, deadline:)` and withdraws it with
// `cancelTimer(id)`: the handshake, activity, pong and close timeouts of each socket, the reconnect
// delay, the client-event pacing, and the timeout of every authorizer and user-authenticator call.
// The actor keeps them in one `TimerSchedule`. One child task of `run()` sleeps on the injected
// clock until the earliest deadline; when the earliest deadline changes, the actor re-arms it
// through a `WaitableState` (`timerAlarm`). When it wakes at its deadline, the actor fires every
// due timer into the engine, in deadline order, and performs what the engine answers.
extension PusherClient {
    /// What the timer task sleeps until.
    struct TimerAlarm: Sendable {
        /// The schedule's earliest deadline; nil when nothing is scheduled.
        var deadline: Duration?
        /// Changes whenever the timer task must look again.
        var version = 0
    }

    /// Every scheduled timer with its deadline, earliest first (for the package's tests).
    package var scheduledTimers: [(timer: TimerID, deadline: Duration)] { self.timers.timers }

    func scheduleTimer(_ timer: TimerID, at deadline: Duration) {
        self.timers.schedule(timer, at: deadline)
        self.rearmTimerTask()
    }

    func cancelTimer(_ timer: TimerID) {
        guard self.timers.cancel(timer) else { return }
        self.rearmTimerTask()
    }

    /// Hands the earliest deadline to the timer task when it changed (or, with `force`, in any case).
    private func rearmTimerTask(force: Bool = false) {
        let earliest = self.timers.earliest
        guard force || earliest != self.armedDeadline else { return }
        self.armedDeadline = earliest
        self.timerAlarm.update { alarm in
            alarm.deadline = earliest
            alarm.version &+= 1
        }
    }

    /// The timer task: sleeps until the earliest deadline, or until it changes, and has the actor
    /// fire what is due. Runs for as long as ``run()``.
    nonisolated func runTimers() async {
        var seen: Int?
        while !Task.isCancelled {
            guard let alarm = await self.timerAlarm.wait(until: { $0.version != seen ? $0 : nil }) else { return }
            seen = alarm.version
            // Nothing scheduled: wait for the next change.
            guard let deadline = alarm.deadline else { continue }
            if await self.sleep(until: deadline, unlessChangedFrom: alarm.version) {
                await self.fireDueTimers()
            }
        }
    }

    /// Sleeps until `deadline` on the injected clock; returns false when the alarm changed from
    /// `version` first (or the task was cancelled).
    private nonisolated func sleep(until deadline: Duration, unlessChangedFrom version: Int) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.clock.sleep(until: deadline)) != nil }
            group.addTask {
                _ = await self.timerAlarm.wait(until: { $0.version != version ? true : nil })
                return false
            }
            let reached = await group.next() ?? false
            group.cancelAll()
            return reached
        }
    }

    /// Fires every timer due now into the engine, earliest first, one at a time: what one timer's
    /// actions cancel does not fire.
    private func fireDueTimers() {
        let now = self.clock.now
        while let timer = self.timers.removeFirstDue(at: now) {
            self.perform(self.engine.timerFired(timer, at: now, random: .random(in: 0..<1)))
        }
        // The timer task looks again even when the earliest deadline happens to be the same.
        self.rearmTimerTask(force: true)
    }

    // MARK: Calls

    /// Registers an authorizer or user-authenticator call whose timeout is `timer`; returns what
    /// cancels it. A call already under way for the same timer is superseded: its answer is dropped.
    func startCall(_ timer: TimerID) -> CallCancellation {
        let cancellation = CallCancellation(nil)
        self.calls[timer] = (cancellation, self.clock.now)
        return cancellation
    }

    /// The engine gave up on the call that `timer` timed: it is cancelled, and recorded as failed.
    func cancelCall(_ timer: TimerID, reason: PusherError) {
        guard let call = self.calls.removeValue(forKey: timer) else { return }
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
        call.cancellation.update { $0 = reason }
    }

    /// Takes the call that `timer` times if `cancellation` is still the one under way; returns when
    /// it started. Nil means its answer is dropped (the engine gave up on it, or it was superseded).
    func finishCall(_ timer: TimerID, cancellation: CallCancellation) -> Duration? {
        guard let call = self.calls[timer], call.cancellation === cancellation else { return nil }
        self.calls[timer] = nil
        return call.start
    }
}
