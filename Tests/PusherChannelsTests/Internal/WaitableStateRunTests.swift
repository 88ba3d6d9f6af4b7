// SPDX-License-Identifier: MIT

import Testing

@testable import PusherChannels

/// ``WaitableState/run(until:_:)``: a body against a signal, in one task.
@Suite("WaitableState.run(until:)", .timeLimit(.minutes(1)))
struct WaitableStateRunTests {
    @Test("an update that meets the condition cancels the body's task, and run returns nil")
    func signalCancelsTheBody() async {
        let signal = WaitableState(0)
        let started = WaitableState(false)
        let task = Task { () -> (result: String?, cancelled: Bool) in
            let result = await signal.run(until: { $0 >= 2 }) { () async -> String in
                started.fire()
                // Suspends until the task is cancelled.
                let fired = await WaitableState(false).waitUntilFired()
                return fired ? "fired" : "cancelled"
            }
            return (result, Task.isCancelled)
        }
        await started.waitUntilFired()
        // Not yet: the body runs on.
        signal.update { $0 = 1 }
        signal.update { $0 = 2 }
        let outcome = await task.value
        #expect(outcome.result == nil)
        #expect(outcome.cancelled)
    }

    @Test("a body that ends first gives its result; the task is not cancelled, and later updates leave it alone")
    func bodyEndsFirst() async {
        let signal = WaitableState(false)
        let result = await signal.run(until: { $0 }) { () async -> Int in 42 }
        #expect(result == 42)
        signal.fire()
        #expect(!Task.isCancelled)
        // The state is free for the next body.
        let again = await signal.run(until: { !$0 }) { () async -> Int in 7 }
        #expect(again == 7)
    }

    @Test("when the condition holds already, the body does not run and the task is not cancelled")
    func conditionHoldsAlready() async {
        let signal = WaitableState(true)
        let ran = Box(false)
        let result = await signal.run(until: { $0 }) { () async -> Int in
            await ran.set(true)
            return 1
        }
        #expect(result == nil)
        #expect(await !ran.value)
        #expect(!Task.isCancelled)
    }

    @Test("a cancellation from elsewhere reaches the body, which gives its result")
    func outsideCancellation() async {
        let signal = WaitableState(false)
        let started = WaitableState(false)
        let task = Task {
            await signal.run(until: { $0 }) { () async -> String in
                started.fire()
                let fired = await WaitableState(false).waitUntilFired()
                return fired ? "fired" : "cancelled"
            }
        }
        await started.waitUntilFired()
        task.cancel()
        #expect(await task.value == "cancelled")
    }
}
