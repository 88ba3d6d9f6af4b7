// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Removes a consumer's registration when its iterator ends or goes away (a `break` out of the loop
/// drops the iterator without cancelling anything). Releasing is idempotent: an iterator that ended
/// releases at once, even while a copy of it (captured by a task's closure, say) is still alive.
final class ListenerToken: Sendable {
    private let pending: NIOLockedValueBox<(@Sendable () -> Void)?>

    /// A token that runs `release` once (nothing for an empty one).
    init(release: @escaping @Sendable () -> Void = {}) {
        self.pending = NIOLockedValueBox(release)
    }

    /// Removes the registration now, the first time only.
    func release() {
        let release = self.pending.withLockedValue { pending in
            defer { pending = nil }
            return pending
        }
        release?()
    }

    deinit {
        self.release()
    }
}
