// SPDX-License-Identifier: MIT

import Testing

@testable import PusherChannels

@Suite("WaitableState", .timeLimit(.minutes(1)))
struct WaitableStateTests {
    /// The cancellation handler of a task that is already cancelled runs before the continuation
    /// is stored; the wait must still end (a lost wake-up here once hung the watchdog and `run()`).
    @Test("a task cancelled before it waits does not hang, and gets nil")
    func cancelledBeforeWaiting() async {
        let state = WaitableState(false)
        let result = Box<Bool?>(true)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                withUnsafeCurrentTask { $0?.cancel() }
                let fired = await state.wait(until: { $0 ? true : nil })
                await result.set(fired)
            }
            // Either the wait ends, or the cancelled task is found suspended: its wake-up was lost.
            while await result.value == true {
                if state.hasWaiter {
                    Issue.record("a task cancelled before waiting stays suspended")
                    state.fire()
                    break
                }
                await Task.yield()
            }
            await group.waitForAll()
        }
        #expect(await result.value == .some(nil))
        // Still usable afterwards: a signal given before the next wait is kept for it.
        state.fire()
        #expect(await state.waitUntilFired())
    }

    @Test("cancelling a suspended waiter resumes it with nil")
    func cancelledWhileWaiting() async {
        let state = WaitableState(0)
        let waiter = Task { await state.wait(until: { $0 > 0 ? $0 : nil }) }
        while !state.hasWaiter { await Task.yield() }
        waiter.cancel()
        #expect(await waiter.value == nil)
        #expect(!state.hasWaiter)
    }

    @Test("an update that does not meet the condition leaves the waiter suspended; one that does wakes it")
    func wakesOnlyWhenTheConditionHolds() async {
        let state = WaitableState([Int]())
        let waiter = Task { await state.wait(until: { $0.count >= 2 ? $0 : nil }) }
        while !state.hasWaiter { await Task.yield() }
        state.update { $0.append(1) }
        // Woken, it checked again and is suspended once more (or has not been resumed yet).
        while !state.hasWaiter { await Task.yield() }
        // A producer that decides not to wake leaves it alone.
        state.update(wakingIf: { _ in false }) { $0.append(2) }
        #expect(state.hasWaiter)
        state.update { _ in }
        #expect(await waiter.value == [1, 2])
    }

    @Test("a buffer with one reader: every element arrives once, in order, whatever the interleaving")
    func bufferWithOneReader() async {
        let buffer = WaitableState((elements: [Int](), finished: false))
        let count = 20_000
        async let received: [Int] = {
            var all: [Int] = []
            while let batch = await buffer.wait(until: { state -> [Int]? in
                if !state.elements.isEmpty {
                    defer { state.elements = [] }
                    return state.elements
                }
                return state.finished ? [] : nil
            }), !batch.isEmpty {
                all += batch
            }
            return all
        }()
        for value in 0..<count {
            // Wake the reader only when there is something for it.
            buffer.update(wakingIf: { !$0.elements.isEmpty }) { $0.elements.append(value) }
            if value % 97 == 0 { await Task.yield() }
        }
        buffer.update { $0.finished = true }
        #expect(await received == Array(0..<count))
    }

    @Test("a waiter on an actor resumes on it and may read the state it changed")
    func waitsWithIsolation() async {
        let counter = Counter()
        let state = WaitableState(0)
        async let total = counter.waitAndAdd(state)
        while !state.hasWaiter { await Task.yield() }
        state.update { $0 = 5 }
        #expect(await total == 5)
    }
}

/// A value set by one task and read by another.
actor Box<Value: Sendable> {
    private(set) var value: Value

    init(_ value: Value) { self.value = value }

    func set(_ value: Value) { self.value = value }
}

private actor Counter {
    var total = 0

    func waitAndAdd(_ state: WaitableState<Int>) async -> Int {
        guard let value = await state.wait(until: { $0 > 0 ? $0 : nil }) else { return -1 }
        // Still isolated to this actor: no hop was needed to get here.
        self.total += value
        return self.total
    }
}
