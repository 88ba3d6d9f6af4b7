// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A signal fired once, awaited by at most one task. Used to cancel one specific child task of the
/// client's task group (a reconnect timer, a socket) without unstructured tasks, and for waits that
/// must end when their task is cancelled.
package final class OneShotSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }

    private let state = NIOLockedValueBox(State.idle)

    package init() {}

    /// Returns when the signal fires or the waiting task is cancelled.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    switch state {
                    case .idle:
                        state = .waiting(continuation)
                        return false
                    case .done:
                        return true
                    case .waiting:
                        preconditionFailure("OneShotSignal supports a single waiter")
                    }
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.fire()
        }
    }

    package func fire() {
        let continuation = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            defer { state = .done }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        continuation?.resume()
    }
}
