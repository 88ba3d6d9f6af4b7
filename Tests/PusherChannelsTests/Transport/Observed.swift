// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A value that changes on other threads (an event loop, another task), and tests that wait until
/// it satisfies a condition — within a real-time limit, so that a client that hangs makes the test
/// fail instead of never ending.
final class Observed<Value: Sendable>: Sendable {
    private struct Waiter: Sendable {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State: Sendable {
        var value: Value
        var waiters: [Int: Waiter] = [:]
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state: NIOLockedValueBox<State>

    init(_ value: Value) {
        self.state = NIOLockedValueBox(State(value: value))
    }

    var value: Value { self.state.withLockedValue { $0.value } }

    /// Changes the value and wakes the waiters whose condition now holds.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, ready) = self.state.withLockedValue { state -> (Result, [Waiter]) in
            let result = body(&state.value)
            let value = state.value
            var ready: [Waiter] = []
            for (id, waiter) in state.waiters where waiter.condition(value) {
                ready.append(waiter)
                state.waiters[id] = nil
            }
            return (result, ready)
        }
        for waiter in ready { waiter.continuation.resume() }
        return result
    }

    /// Whether `condition` held within `limit` of real time. The limit only bounds how long a test
    /// waits for something that should happen at once; nothing here depends on it passing.
    func wait(within limit: Duration, until condition: @escaping @Sendable (Value) -> Bool) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(until: condition) }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        return condition(self.value)
    }

    /// Suspends until `condition` holds or the task is cancelled.
    private func wait(until condition: @escaping @Sendable (Value) -> Bool) async {
        let id = self.state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = self.state.withLockedValue { state -> Bool in
                    if state.cancelled.remove(id) != nil || condition(state.value) { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume()
        }
    }
}
