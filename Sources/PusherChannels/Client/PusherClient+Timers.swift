// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Every scheduled timer with its deadline, earliest first (for the package's tests).
    package var scheduledTimers: [(timer: TimerID, deadline: Duration)] { self.withEngine { $0.timers.timers } }

    /// Suspends until the earliest deadline of the client's timers is `deadline` (nil: none is
    /// scheduled), or the task is cancelled. For the package's tests: the timer task re-arms only
    /// for an earlier deadline, so the clock's sleeper may still wait for one that moved later.
    package func waitForEarliestDeadline(_ deadline: Duration?) async {
        let signal = WaitableState(false)
        let waits = self.withEngine { driver in
            guard driver.timers.earliest != deadline else { return false }
            driver.earliestDeadlineWaiters.append((deadline, signal))
            return true
        }
        guard waits else { return }
        await signal.waitUntilFired()
        // A cancelled wait leaves nothing behind.
        self.withEngine { $0.earliestDeadlineWaiters.removeAll { $0.signal === signal } }
    }

    /// How many child tasks the client has started since it was made (for the package's tests).
    package var childTasksStarted: Int { self.withEngine { $0.childTasksStarted } }

    /// Counts a child task about to start.
    nonisolated func countChildTask() {
        self.withEngine { $0.childTasksStarted &+= 1 }
    }

    /// The timer task: runs one sleeper at a time (see ``runSleeper()``), and starts another only
    /// when the earliest deadline moved earlier than the one the last sleeper slept to. Runs for as
    /// long as ``run()``.
    nonisolated func runTimers() async {
        while !Task.isCancelled {
            self.countChildTask()
            await withDiscardingTaskGroup { group in
                group.addTask { await self.runSleeper() }
            }
        }
    }

    /// Sleeps on the injected clock until the earliest deadline, fires what is due, and again,
    /// until its task is cancelled: by the end of the run, or by the timer alarm when the earliest
    /// deadline moves earlier than the one it sleeps to. A deadline that moves later, or goes, does
    /// not wake it: it wakes at the one it slept to, finds nothing due, and sleeps on to the new
    /// earliest.
    private nonisolated func runSleeper() async {
        while !Task.isCancelled {
            // Nothing scheduled: wait for a deadline.
            guard let deadline = await self.timerAlarm.wait(until: { $0.deadline }) else { return }
            let reached = await self.timerAlarm.run(until: { $0.deadline.map { $0 < deadline } ?? false }) {
                (try? await self.clock.sleep(until: deadline)) != nil
            }
            if reached == true { self.withEngine { $0.fireDueTimers() } }
        }
    }
}
