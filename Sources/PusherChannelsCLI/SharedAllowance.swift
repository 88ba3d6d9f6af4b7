// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A count shared by every connection of `webhooks` and bounded by ``limit``: open connections, or
/// body bytes held before their signature was checked. Whoever takes gives back.
final class SharedAllowance: Sendable {
    let limit: Int
    private let used = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `amount` when it fits under the limit; returns whether it did.
    func take(_ amount: Int) -> Bool {
        self.used.withLockedValue { used in
            guard amount <= self.limit - used else { return false }
            used += amount
            return true
        }
    }

    /// Gives back `amount` taken earlier.
    func giveBack(_ amount: Int) {
        guard amount > 0 else { return }
        self.used.withLockedValue { $0 -= amount }
    }
}
