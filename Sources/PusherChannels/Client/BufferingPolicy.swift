// SPDX-License-Identifier: MIT

import NIOSSL
import PusherCore

/// How many events may wait for a consumer that is not keeping up, and what happens when more arrive.
///
/// Each consumer has its own buffer, so a stalled consumer never delays another one or the
/// connection. The default keeps up to 10 000 events and then *fails* that consumer's sequence with
/// ``PusherError/Code-swift.struct/consumerTooSlow``: losing events silently is worse than
/// stopping loudly. Pick `.dropOldest` for feeds where only recent values matter (prices), or
/// `.dropNewest` to keep the backlog and discard what arrives on top of it.
public struct BufferingPolicy: Sendable, Hashable {
    public enum WhenFull: Sendable, Hashable {
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

    /// 10 000 events or 32 MiB, then fail the consumer.
    public static let `default` = BufferingPolicy(limit: 10_000, whenFull: .fail)
}
