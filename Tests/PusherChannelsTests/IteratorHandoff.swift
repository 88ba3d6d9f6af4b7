// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

/// Moves an iterator into a task, so that no copy stays in the task's closure (a copy would keep
/// its consumer registered for as long as the task object lives).
final class IteratorHandoff: @unchecked Sendable {
    // Safe: the iterator is set in `init` and taken once, under the lock, by the one task it is
    // made for; nothing else touches it.
    private let lock = NIOLock()
    private var iterator: ChannelSequence<ChannelEvent>.AsyncIterator?

    init(_ iterator: ChannelSequence<ChannelEvent>.AsyncIterator) {
        self.iterator = iterator
    }

    func take() -> ChannelSequence<ChannelEvent>.AsyncIterator {
        self.lock.withLock {
            defer { self.iterator = nil }
            return self.iterator!
        }
    }
}
