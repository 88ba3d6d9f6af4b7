// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Flow control between a client's consumers and its sockets: closed while any consumer with the
/// `pauseReading` policy holds more than its limit, open again once every such consumer has taken
/// its backlog down to half (or ended).
///
/// A ``ConsumerBuffer`` holds the gate when it goes over its limit and releases it when it drains
/// or finishes, once each way. The client's reader waits at the gate after handing a batch over,
/// so nothing more is decrypted or delivered while a consumer is behind, and the transport's
/// own bounded queue then stops reading from the socket: TCP slows the server down.
///
/// Several readers may wait (a socket being closed and the new one); all resume when it opens, or
/// when ``wakeWaiters()`` asks them to look again (a socket that is being closed stops waiting, so
/// its close completes).
package final class FlowGate: Sendable {
    private struct State {
        /// Consumers over their limit.
        var holders = 0
        var waiters: [UInt64: UnsafeContinuation<Void, Never>] = [:]
        var lastWaitID: UInt64 = 0
        /// Waits cancelled before they stored their continuation.
        var cancelledWaits: Set<UInt64> = []
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Whether no consumer is over its limit.
    package var isOpen: Bool {
        self.state.withLockedValue { $0.holders == 0 }
    }

    /// A consumer went over its limit: the gate closes.
    func hold() {
        self.state.withLockedValue { $0.holders += 1 }
    }

    /// A consumer that held the gate drained or ended: the gate opens when it was the last one.
    func release() {
        let waiters = self.state.withLockedValue { state -> [UnsafeContinuation<Void, Never>] in
            precondition(state.holders > 0, "FlowGate released more often than held")
            state.holders -= 1
            guard state.holders == 0, !state.waiters.isEmpty else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Resumes every waiting reader, open or not, to check again whether it must wait.
    package func wakeWaiters() {
        let waiters = self.state.withLockedValue { state -> [UnsafeContinuation<Void, Never>] in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many readers wait now (for the package's tests).
    package var waiterCount: Int {
        self.state.withLockedValue { $0.waiters.count }
    }

    /// Suspends until the gate is open, ``wakeWaiters()`` is called, or the task is cancelled.
    /// Resumes on `isolation`.
    package func waitUntilOpen(isolation: isolated (any Actor)? = #isolation) async {
        let id = self.state.withLockedValue { state -> UInt64? in
            guard state.holders > 0 else { return nil }
            state.lastWaitID &+= 1
            return state.lastWaitID
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    if state.holders == 0 || state.cancelledWaits.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = self.state.withLockedValue { state -> UnsafeContinuation<Void, Never>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    // Not stored yet (or already resumed): the wait finds this mark.
                    state.cancelledWaits.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.resume()
        }
        // A mark the wait never found (it was resumed by `release` first) is dropped.
        self.state.withLockedValue { _ = $0.cancelledWaits.remove(id) }
    }
}
