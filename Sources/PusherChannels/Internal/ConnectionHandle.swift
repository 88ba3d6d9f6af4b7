// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// What the client keeps for one socket: the endpoint it was opened to, its outbox (bounded in
/// bytes), and the signal that aborts it.
struct ConnectionHandle: Sendable {
    enum Frame: Sendable {
        case text(String)
        case close
    }

    private struct Outbox {
        /// Bytes queued and not yet written.
        var bytes = 0
        /// Set when the queue went over its limit: why the socket was dropped.
        var overflow: PusherError?
    }

    /// The endpoint this attempt went to, chosen when it was opened.
    let endpoint: PusherEndpoint
    private let outbox: AsyncStream<Frame>.Continuation
    let frames: AsyncStream<Frame>
    /// Fired to drop the socket at once.
    let abort = WaitableState(false)
    private let state = NIOLockedValueBox(Outbox())

    init(endpoint: PusherEndpoint) {
        self.endpoint = endpoint
        (self.frames, self.outbox) = AsyncStream.makeStream()
    }

    /// Queues `text` for writing. When the queue would go over `limit` bytes (the socket does not
    /// take what is written), nothing is queued, the socket is aborted, and false is returned.
    func send(_ text: String, limit: Int) -> Bool {
        let size = text.utf8.count
        let accepted = self.state.withLockedValue { state -> Bool in
            guard state.overflow == nil else { return false }
            // One message larger than the limit alone still goes when nothing waits.
            guard state.bytes == 0 || state.bytes + size <= limit else {
                state.overflow = PusherError(
                    .limitExceeded,
                    "more than \(limit) bytes of outbound messages waited for the socket (outboundBufferLimit); the connection was dropped"
                )
                return false
            }
            state.bytes += size
            return true
        }
        if accepted {
            self.outbox.yield(.text(text))
        } else {
            self.abort.fire()
        }
        return accepted
    }

    /// The writer wrote `text`.
    func wrote(_ text: String) {
        let size = text.utf8.count
        self.state.withLockedValue { $0.bytes -= size }
    }

    /// Starts the close handshake after what is queued.
    func close() { self.outbox.yield(.close) }

    /// No more frames: the writer ends.
    func finish() { self.outbox.finish() }

    /// Why the socket was dropped by the client, if the outbox overflowed.
    var overflow: PusherError? { self.state.withLockedValue { $0.overflow } }
}
