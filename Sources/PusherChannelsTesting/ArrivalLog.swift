// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Things that arrive one after another (connections, messages), kept in order: one side appends,
/// a test reads them in turn with ``next()``, waiting for the next one when it has read them all.
final class ArrivalLog<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var read = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Everything that arrived so far.
    var all: [Element] { self.state.withLockedValue { $0.elements } }

    func append(_ element: Element) {
        let waiter = self.state.withLockedValue { state in
            state.elements.append(element)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The next element not read yet, in order; waits until one arrives.
    func next() async -> Element {
        while true {
            let next = self.state.withLockedValue { state -> Element? in
                guard state.read < state.elements.count else { return nil }
                state.read += 1
                return state.elements[state.read - 1]
            }
            if let next { return next }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    guard state.read >= state.elements.count else { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }
}
