// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// The bytes waiting to be written to one WebSocket client, against a bound: the server's actor
/// adds what it queues, the connection's writer takes off what it wrote.
final class OutboxBudget: Sendable {
    private let queued = NIOLockedValueBox(0)
    /// Most bytes that may wait; nil for no bound.
    let limit: Int?

    init(limit: Int?) {
        self.limit = limit
    }

    /// Counts `bytes` more, unless that goes over the bound; returns whether it did.
    func add(_ bytes: Int) -> Bool {
        self.queued.withLockedValue { queued in
            if let limit = self.limit, queued + bytes > limit { return false }
            queued += bytes
            return true
        }
    }

    /// Counts `bytes` written.
    func remove(_ bytes: Int) {
        self.queued.withLockedValue { $0 -= bytes }
    }
}
