// SPDX-License-Identifier: MIT

import NIOSSL
import PusherCore

/// How many events may wait for a consumer that is not keeping up, and what happens when more arrive.
///
/// Each consumer has its own buffer. By default (``default``, `whenFull: .pauseReading`) a slow
/// consumer loses nothing: past 10 000 events (or 32 MiB), the client stops reading from the socket
/// until that consumer has taken half of them, so the server is slowed down through TCP and memory
/// stays bounded. While reading is paused, the events of every channel on that connection wait
/// too, not only the slow consumer's: a consumer that stops iterating for good holds the whole
/// connection (leave its loop, or cancel its task, to let the others go on). For the same reason,
/// a loop that is far behind must not wait for something that arrives on the connection (such as
/// the confirmation ``PusherClient/withSubscription(to:named:authorization:buffering:waitsForConfirmation:isolation:_:)``
/// waits for) before it takes more events: do that in another task, or give that consumer
/// another policy.
///
/// The other choices keep the connection flowing at a consumer's expense: `.fail` ends the slow
/// consumer's sequence with ``PusherError/Code-swift.struct/consumerTooSlow``; `.dropOldest` suits
/// feeds where only recent values matter (prices); `.dropNewest` keeps the backlog and discards
/// what arrives on top of it.
public struct BufferingPolicy: Sendable, Hashable {
    public enum WhenFull: Sendable, Hashable {
        /// Stop reading from the socket until the consumer has taken its backlog down to half the
        /// limits; no event is lost. The limits are a high-water mark: the events of the socket
        /// read being handled still go in: at most 256 KiB of the socket's bytes (NIO reads four
        /// times up to 64 KiB before handing them over), plus the one message such a read
        /// completes, up to ``PusherClientConfiguration/maximumMessageSize``.
        case pauseReading
        /// End the consumer's sequence with a `consumerTooSlow` error after the buffered events.
        case fail
        /// Discard the oldest buffered event to make room.
        case dropOldest
        /// Discard the event that does not fit.
        case dropNewest
    }

    /// Events held for one consumer at most (at least 1: a smaller value counts as 1).
    public var limit: Int {
        didSet { self.limit = max(1, self.limit) }
    }
    /// Bytes held for one consumer at most: every string of each event (data, name, channel, user
    /// id), and the ids and `user_info` of every member a presence change carries, plus a fixed 64
    /// bytes per element. Whichever of the two limits is reached first applies; one element larger
    /// than this alone is still delivered. Default 32 MiB; a value below 1 counts as 1.
    public var byteLimit: Int {
        didSet { self.byteLimit = max(1, self.byteLimit) }
    }
    public var whenFull: WhenFull

    public init(limit: Int, whenFull: WhenFull, byteLimit: Int = 32 << 20) {
        self.limit = max(1, limit)
        self.byteLimit = max(1, byteLimit)
        self.whenFull = whenFull
    }

    /// 10 000 events or 32 MiB, then pause reading from the socket until the consumer catches up.
    public static let `default` = BufferingPolicy(limit: 10_000, whenFull: .pauseReading)
}
