// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A reusable wake-up for one waiting task: `signal()` wakes the current waiter, or the next one if
/// nobody waits yet. Used to re-arm a socket's watchdog when its deadline changes.
final class WakeupSignal: Sendable {
    private enum State {
        case idle
        case pending
        case waiting(CheckedContinuation<Void, Never>)
    }

    private let state = NIOLockedValueBox(State.idle)

    /// Returns at the next signal (or at once if one is pending), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    switch state {
                    case .pending:
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
            let continuation = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                guard case .waiting(let continuation) = state else { return nil }
                state = .idle
                return continuation
            }
            continuation?.resume()
        }
    }

    func signal() {
        let continuation = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            switch state {
            case .waiting(let continuation):
                state = .idle
                return continuation
            case .idle, .pending:
                state = .pending
                return nil
            }
        }
        continuation?.resume()
    }
}
