// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A reusable wake-up for one waiting task: `signal()` wakes the current waiter, or the next one if
/// nobody waits yet. Used to re-arm a socket's watchdog when its deadline changes.
///
/// A wait ends at the next signal or when its task is cancelled, also when the task was cancelled
/// before it started waiting: the cancellation handler can run before the continuation is stored,
/// so it leaves a mark that the wait sees.
package final class WakeupSignal: Sendable {
    private enum State {
        case idle
        case pending
        case waiting(UnsafeContinuation<Void, Never>)
        /// The waiting task was cancelled before its continuation was stored.
        case cancelled
    }

    private let state = NIOLockedValueBox(State.idle)

    package init() {}

    /// Returns at the next signal (or at once if one is pending), or when the task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    switch state {
                    case .pending, .cancelled:
                        state = .idle
                        return true
                    case .idle:
                        state = .waiting(continuation)
                        return false
                    case .waiting:
                        preconditionFailure("WakeupSignal supports a single waiter")
                    }
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.wake(orLeave: .cancelled)
        }
    }

    /// Whether a task is suspended in ``wait()``.
    package var hasWaiter: Bool {
        self.state.withLockedValue { if case .waiting = $0 { true } else { false } }
    }

    package func signal() {
        self.wake(orLeave: .pending)
    }

    /// Resumes the waiter if there is one; otherwise leaves `mark` for the next wait.
    private func wake(orLeave mark: State) {
        let continuation = self.state.withLockedValue { state -> UnsafeContinuation<Void, Never>? in
            guard case .waiting(let continuation) = state else {
                state = mark
                return nil
            }
            state = .idle
            return continuation
        }
        continuation?.resume()
    }
}
