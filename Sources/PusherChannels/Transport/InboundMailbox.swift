// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// Inbound messages between a transport's reader and the client: the reader puts them in one by
/// one, the client takes all that are there at once, so one hop to the client handles a batch.
package final class InboundMailbox: Sendable {
    private struct State {
        var frames: [ClientEngine.InboundFrame] = []
        var waiter: UnsafeContinuation<Void, Never>?
        var isClosed = false
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Adds one message; wakes the client if it waits.
    package func put(_ frame: ClientEngine.InboundFrame) {
        let waiter = self.state.withLockedValue { state in
            state.frames.append(frame)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Adds the messages of one read at once; wakes the client if it waits.
    package func put(contentsOf frames: [ClientEngine.InboundFrame]) {
        let waiter = self.state.withLockedValue { state in
            state.frames.append(contentsOf: frames)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// No more messages will come.
    package func close() {
        let waiter = self.state.withLockedValue { state in
            state.isClosed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Every message there now (at least one), or nil once closed and empty. Returns nil when the
    /// task is cancelled.
    package func take() async -> [ClientEngine.InboundFrame]? {
        while true {
            let taken = self.state.withLockedValue { state -> [ClientEngine.InboundFrame]?? in
                if !state.frames.isEmpty {
                    defer { state.frames = [] }
                    return .some(state.frames)
                }
                return state.isClosed ? .some(nil) : .none
            }
            if let taken { return taken }
            if Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let resumeNow = self.state.withLockedValue { state -> Bool in
                        if !state.frames.isEmpty || state.isClosed { return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                self.close()
            }
        }
    }
}
