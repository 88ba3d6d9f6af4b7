// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Lets one iterator at a time take from a ``ChannelSubscription``'s buffer, which wakes a single
/// waiter: the iterator holds the claim until it is dropped.
final class IterationClaim: Sendable {
    private let taken = NIOLockedValueBox(false)

    /// Takes the claim; false when another iterator holds it.
    func take() -> Bool {
        self.taken.withLockedValue { taken in
            defer { taken = true }
            return !taken
        }
    }

    func release() {
        self.taken.withLockedValue { $0 = false }
    }

    /// Gives the claim back when the iterator holding it goes away.
    final class Holder: Sendable {
        private let claim: IterationClaim

        init(_ claim: IterationClaim) {
            self.claim = claim
        }

        deinit {
            self.claim.release()
        }
    }
}
