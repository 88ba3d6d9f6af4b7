// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// State behind a lock, with at most one task suspended until the state meets a condition: the
/// package's one waiter primitive.
///
/// - ``withLock(_:)`` reads or changes the state without waking anyone.
/// - ``update(_:)`` changes it and resumes the waiter, which checks its condition again;
///   ``update(wakingIf:_:)`` lets the change decide whether to wake it.
/// - ``wait(isolation:until:)`` suspends one task until its condition returns a value, running on
///   the caller's executor (no hop to take what is there already).
///
/// No wake-up is lost: the waiter checks its condition and stores its continuation in the same
/// critical section in which an update changes the state and takes the continuation. A wait ends
/// when its task is cancelled, also when the cancellation comes before the continuation is
/// stored (the cancellation handler leaves a mark for that wait, which it finds under the lock).
///
/// It fits a buffer with one reader (a consumer's buffer): the state is the buffer;
/// the producer appends in ``update(wakingIf:_:)``, waking the reader only when there is
/// something for it; the reader's condition takes what is buffered (or the end) and returns nil
/// while there is nothing, and it may mark the state while it waits (for example "the next
/// element is owed to a suspended reader"): returning nil means the task suspends unless it was
/// cancelled. A signal is `WaitableState<Bool>` (``fire()`` and ``waitUntilFired(isolation:)``);
/// a value that changes over time (such as the earliest deadline of a timer schedule) is a state
/// the waiter compares with what it saw.
///
/// It is also the package's one race of "some work against a signal": ``run(until:_:)`` runs a body
/// in the caller's task until an update makes a condition hold, and then cancels that task, so
/// the body (an authorizer's call, a headers provider, a timer's sleep) ends early; no child task
/// waits for the signal.
package final class WaitableState<State: Sendable>: Sendable {
    private struct Inner: Sendable {
        var value: State
        var waiter: UnsafeContinuation<Void, Never>?
        /// The wait whose continuation is stored.
        var waiterID: UInt64 = 0
        /// A wait that was cancelled before it stored its continuation.
        var cancelledWait: UInt64?
        var lastWaitID: UInt64 = 0
        /// The task running a body in ``run(until:_:)``, cancelled by the update that makes its
        /// condition hold.
        var watcher: Watcher?
    }

    /// A task in ``run(until:_:)``, with its condition.
    ///
    /// `@unchecked Sendable` because `UnsafeCurrentTask` is not Sendable. It is safe here: a
    /// watcher lives only in `Inner`, behind the lock; it is stored by its task inside the
    /// `withUnsafeCurrentTask` closure of `run(until:_:)` and taken out, under the lock, before that
    /// closure returns, and the one use of `task` from another thread is `cancel()`, made under the
    /// same lock while it is stored (so within that closure). `cancel()` is one of the APIs that
    /// `Task` also has, which the documentation allows to call from another task.
    private struct Watcher: @unchecked Sendable {
        let id: UInt64
        let task: UnsafeCurrentTask
        let condition: @Sendable (State) -> Bool
    }

    private let inner: NIOLockedValueBox<Inner>

    package init(_ initial: State) {
        self.inner = NIOLockedValueBox(Inner(value: initial))
    }

    /// Reads or changes the state under the lock, without waking the waiter.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try self.inner.withLockedValue { try body(&$0.value) }
    }

    /// Changes the state under the lock, then resumes the waiter (if one is suspended) so that it
    /// checks its condition again, and cancels the task in ``run(until:_:)`` if its condition now holds.
    @discardableResult
    package func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try self.update(wakingIf: { _ in true }, body)
    }

    /// Changes the state under the lock, then resumes the waiter if `shouldWake` holds for the new
    /// state (still under the lock): a producer wakes its reader only when there is something for it.
    /// The task in ``run(until:_:)`` is cancelled when its condition holds, whatever `shouldWake` says.
    @discardableResult
    package func update<Result>(
        wakingIf shouldWake: (State) -> Bool,
        _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        let (result, waiter) = try self.inner.withLockedValue {
            inner -> (Result, UnsafeContinuation<Void, Never>?) in
            let result = try body(&inner.value)
            if let watcher = inner.watcher, watcher.condition(inner.value) {
                inner.watcher = nil
                // Under the lock, on purpose: the task is still inside `run(until:_:)` (which takes
                // its watcher out under this lock before it returns), so its reference is used only
                // within the `withUnsafeCurrentTask` closure that gave it.
                watcher.task.cancel()
            }
            guard inner.waiter != nil, shouldWake(inner.value) else { return (result, nil) }
            defer { inner.waiter = nil }
            return (result, inner.waiter)
        }
        waiter?.resume()
        return result
    }

    /// Changes the state under the lock without resuming the waiter or cancelling the task in
    /// ``run(until:_:)``; returns whether ``wake()`` is due (a waiter is suspended, or that task's
    /// condition now holds). For a caller holding another lock: it calls ``wake()`` once it has let
    /// go, so that what a cancellation runs (the body's handlers) never runs under that lock.
    package func updateWithoutWaking(_ body: (inout State) -> Void) -> Bool {
        self.inner.withLockedValue { inner in
            body(&inner.value)
            return inner.waiter != nil || (inner.watcher?.condition(inner.value) ?? false)
        }
    }

    /// Resumes the waiter, and cancels the task in ``run(until:_:)`` if its condition holds: what
    /// ``update(_:)`` does after its change.
    package func wake() {
        self.update { _ in }
    }

    /// Whether a task is suspended in ``wait(isolation:until:)``.
    package var hasWaiter: Bool {
        self.inner.withLockedValue { $0.waiter != nil }
    }

    /// Suspends until `condition` returns a value and returns it, or returns nil once the task is
    /// cancelled (what `condition` returns at once, or at a last look after the cancellation, is
    /// still returned). `condition` runs under the lock: at once, and again after every update that wakes
    /// this waiter; it may change the state (take what it returns). While it returns nil the task
    /// stays suspended. At most one task waits at a time.
    ///
    /// - Parameters:
    ///   - isolation: The actor the caller runs on; the wait resumes there.
    ///   - condition: What the caller waits for: a value, or nil to keep waiting.
    package func wait<Result>(
        isolation: isolated (any Actor)? = #isolation,
        until condition: (inout State) -> Result?
    ) async -> Result? {
        // The fast path: the condition holds already (no continuation, no cancellation handler).
        if let result = self.inner.withLockedValue({ condition(&$0.value) }) { return result }
        let id = self.inner.withLockedValue { inner -> UInt64 in
            inner.lastWaitID &+= 1
            return inner.lastWaitID
        }
        while !Task.isCancelled {
            var result: Result?
            await withTaskCancellationHandler {
                await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
                    let resumeNow = self.inner.withLockedValue { inner -> Bool in
                        if let value = condition(&inner.value) {
                            result = value
                            return true
                        }
                        // Cancelled before the continuation was stored: the handler found nothing to resume.
                        if inner.cancelledWait == id { return true }
                        precondition(inner.waiter == nil, "WaitableState supports a single waiter")
                        inner.waiter = continuation
                        inner.waiterID = id
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = self.inner.withLockedValue { inner -> UnsafeContinuation<Void, Never>? in
                    guard let waiter = inner.waiter, inner.waiterID == id else {
                        inner.cancelledWait = id
                        return nil
                    }
                    inner.waiter = nil
                    return waiter
                }
                waiter?.resume()
            }
            if let result { return result }
        }
        // One last look: what is there is still taken by a cancelled task (like a buffered element).
        return self.inner.withLockedValue { condition(&$0.value) }
    }

    /// Runs `body` in the current task until `condition` holds for the state, or the task is
    /// cancelled; returns what `body` returns, or nil when `condition` held first.
    ///
    /// The update that makes `condition` hold cancels the current task, so `body` (an authorizer's
    /// call, a sleep on a clock) sees a cancelled task and should return soon; this returns nil once
    /// it has, whatever it returned. The task stays cancelled: run this in a task that has nothing
    /// else to wait for afterwards. When `condition` holds already, `body` does not run and the task
    /// is not cancelled. A cancellation from elsewhere reaches `body` as any cancellation does.
    ///
    /// There is no second task racing `body`: the updater cancels the task itself, on its own
    /// thread and under this state's lock, so `body`'s cancellation handlers run there and must not
    /// use this state. An updater holding another lock (the client's engine lock) changes the state
    /// with ``updateWithoutWaking(_:)`` and calls ``wake()`` once it has let go. At most one task
    /// runs a body at a time (besides one in ``wait(isolation:until:)``).
    ///
    /// - Parameters:
    ///   - condition: When `body` is to be given up; runs under the lock, at once and after every
    ///     update until `body` returns.
    ///   - body: The work, in the current task.
    package func run<Result>(
        until condition: @escaping @Sendable (State) -> Bool,
        _ body: () async -> Result
    ) async -> Result? {
        await withUnsafeCurrentTask { task -> Result? in
            // An async function always runs in a task.
            guard let task else { return await body() }
            let id = self.inner.withLockedValue { inner -> UInt64? in
                if condition(inner.value) { return nil }
                precondition(inner.watcher == nil, "WaitableState supports a single task in run(until:)")
                inner.lastWaitID &+= 1
                inner.watcher = Watcher(id: inner.lastWaitID, task: task, condition: condition)
                return inner.lastWaitID
            }
            guard let id else { return nil }
            let result = await body()
            // Still registered: no update cancelled the task. Taken out under the lock, so that no
            // update uses `task` once this closure has returned.
            let ranToTheEnd = self.inner.withLockedValue { inner -> Bool in
                guard inner.watcher?.id == id else { return false }
                inner.watcher = nil
                return true
            }
            return ranToTheEnd ? result : nil
        }
    }
}

extension WaitableState where State == Bool {
    /// Sets the flag and wakes the waiter: a one-shot signal.
    package func fire() {
        self.update { $0 = true }
    }

    /// Suspends until the flag is set. Returns false when the task was cancelled first.
    @discardableResult
    package func waitUntilFired(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        await self.wait(isolation: isolation) { $0 ? true : nil } ?? false
    }
}
