// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// How one connection ended, written on the event loop and read by the task that ran it: the
/// close that ended it (the server's close frame, or the client's own when the server broke a
/// limit), the first error, and whether a close frame was sent (only one is).
package final class ConnectionOutcomeBox: Sendable {
    private struct State {
        package var closeFrame: TransportClose?
        package var error: (any Error)?
        var closeSent = false
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Records the close that ends the connection; the first one counts.
    func received(_ close: TransportClose) {
        self.state.withLockedValue { if $0.closeFrame == nil { $0.closeFrame = close } }
    }

    func failed(_ error: any Error) {
        self.state.withLockedValue { if $0.error == nil { $0.error = error } }
    }

    /// Marks that a close frame goes out; false if one already did.
    package func startClose() -> Bool {
        self.state.withLockedValue { state in
            defer { state.closeSent = true }
            return !state.closeSent
        }
    }

    package var closeFrame: TransportClose? { self.state.withLockedValue { $0.closeFrame } }
    package var error: (any Error)? { self.state.withLockedValue { $0.error } }
}
