// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Whether `serve`'s server started listening: an error before tells that it could not listen.
final class ServeStart: Sendable {
    private let marked = NIOLockedValueBox(false)

    func mark() {
        self.marked.withLockedValue { $0 = true }
    }

    var isMarked: Bool { self.marked.withLockedValue { $0 } }
}
