// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Every scheduled timer with its deadline, earliest first (for the package's tests).
    package var scheduledTimers: [(timer: TimerID, deadline: Duration)] { self.withEngine { $0.timers.timers } }

    /// The timer task: sleeps until the earliest deadline, or until it changes, and fires what is
    /// due. Runs for as long as ``run()``.
    nonisolated func runTimers() async {
        var seen: Int?
        while !Task.isCancelled {
            guard let alarm = await self.timerAlarm.wait(until: { $0.version != seen ? $0 : nil }) else { return }
            seen = alarm.version
            // Nothing scheduled: wait for the next change.
            guard let deadline = alarm.deadline else { continue }
            if await self.sleep(until: deadline, unlessChangedFrom: alarm.version) {
                self.withEngine { $0.fireDueTimers() }
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
}
