// SPDX-License-Identifier: MIT

import PusherCore

/// Inbound messages between a transport's reader and the client: the reader puts them in, the
/// client takes all that are there at once, on its own actor, so one hop to the client handles
/// a batch.
///
/// It is bounded in messages and in bytes: once `limit` messages or `byteLimit` bytes wait,
/// ``put(contentsOf:byteCount:)`` tells the reader to stop reading from the socket, and the next
/// ``take()`` calls the resume handler. A client that is busy thus slows the server down through
/// TCP instead of growing memory without bound: the mailbox holds at most the limits plus what one
/// socket read brings.
package final class InboundMailbox: Sendable {
    private struct State {
        var messages: [InboundMessage] = []
        var byteCount = 0
        var isClosed = false
        var isPaused = false
        var onResume: (@Sendable () -> Void)?
    }

    /// The messages, with the client's read loop as their one waiter.
    private let state = WaitableState(State())
    private let limit: Int
    private let byteLimit: Int

    /// What one message counts besides its bytes (its place in the batch, the parsed envelope).
    package static let messageOverhead = 64

    package init(limit: Int = 1024, byteLimit: Int = 4 << 20) {
        self.limit = limit
        self.byteLimit = byteLimit
    }

    /// The byte budget for a connection whose messages may be up to `maximumMessageSize` bytes:
    /// 4 MiB, or one message of the largest size when that is more.
    package static func byteLimit(maximumMessageSize: Int) -> Int {
        max(4 << 20, maximumMessageSize)
    }

    /// What the reader does to read again after it was told to stop.
    package func setResumeHandler(_ resume: @escaping @Sendable () -> Void) {
        self.state.withLock { $0.onResume = resume }
    }

    /// Adds the messages of one read at once; wakes the client if it waits.
    ///
    /// - Parameters:
    ///   - messages: The messages, in order.
    ///   - byteCount: What they hold: their payload bytes plus ``messageOverhead`` each.
    /// - Returns: False when the reader should stop reading until the resume handler is called.
    @discardableResult
    package func put(contentsOf messages: [InboundMessage], byteCount: Int) -> Bool {
        self.state.update(wakingIf: { !$0.messages.isEmpty }) { state -> Bool in
            // Usually the client took everything already: the batch is handed over as it is.
            if state.messages.isEmpty {
                state.messages = messages
            } else {
                state.messages.append(contentsOf: messages)
            }
            state.byteCount += byteCount
            if state.messages.count >= self.limit || state.byteCount >= self.byteLimit { state.isPaused = true }
            return !state.isPaused
        }
    }

    /// No more messages will come.
    package func close() {
        self.state.update { $0.isClosed = true }
    }

    /// Every message there now (at least one), or nil once closed and empty. Returns nil when the
    /// task is cancelled. Runs on `isolation` (the caller's actor), and resumes there when messages
    /// arrive: no hop in between.
    package func take(isolation: isolated (any Actor)? = #isolation) async -> [InboundMessage]? {
        // The reader was told to stop only when the mailbox was full, so the take that empties it
        // also lets the reader go on.
        var resume: (@Sendable () -> Void)?
        let taken = await self.state.wait(isolation: isolation) { state -> [InboundMessage]?? in
            if state.isPaused {
                state.isPaused = false
                resume = state.onResume
            }
            if !state.messages.isEmpty {
                defer {
                    state.messages = []
                    state.byteCount = 0
                }
                return .some(state.messages)
            }
            return state.isClosed ? .some(nil) : nil
        }
        resume?()
        // nil: the task was cancelled.
        return taken ?? nil
    }
}
