// SPDX-License-Identifier: MIT

import PusherChannels
import Testing

@Suite("WakeupSignal", .timeLimit(.minutes(1)))
struct WakeupSignalTests {
    /// The cancellation handler of a task that is already cancelled runs before the continuation
    /// is stored; the wait must still end (it used to hang, and with it the watchdog and `run()`).
    @Test("a task cancelled before it waits does not hang")
    func cancelledBeforeWaiting() async {
        let signal = WakeupSignal()
        let finished = Flag()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                withUnsafeCurrentTask { $0?.cancel() }
                await signal.wait()
                await finished.set()
            }
            // Either the wait ends, or the cancelled task is found suspended: its wake-up was lost.
            while await !finished.value {
                if signal.hasWaiter {
                    Issue.record("a task cancelled before waiting stays suspended")
                    signal.signal()
                    break
                }
                await Task.yield()
            }
            await group.waitForAll()
        }
        // Still usable afterwards: a signal given before the next wait is kept for it.
        signal.signal()
        await signal.wait()
    }

    @Test("a signal wakes the current waiter, or the next one")
    func wakes() async {
        let signal = WakeupSignal()
        signal.signal()
        await signal.wait()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await signal.wait() }
            // Keep signalling until the waiter is woken: a signal before it waits is kept, not lost.
            signal.signal()
            await group.waitForAll()
        }
    }
}

/// A flag set by one task and read by another.
actor Flag {
    private(set) var value = false

    func set() { self.value = true }
}
