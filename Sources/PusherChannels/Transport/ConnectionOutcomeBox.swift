// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// How one connection ended, written on the event loop and read by the task that ran it: the
/// server's close frame, the first error, and whether a close frame was sent (only one is).
final class ConnectionOutcomeBox: Sendable {
    private struct State {
        var closeFrame: TransportClose?
        var error: (any Error)?
        var closeSent = false
    }

    private let state = NIOLockedValueBox(State())

    func received(_ close: TransportClose) {
        self.state.withLockedValue { if $0.closeFrame == nil { $0.closeFrame = close } }
    }

    func failed(_ error: any Error) {
        self.state.withLockedValue { if $0.error == nil { $0.error = error } }
    }

    /// Marks that a close frame goes out; false if one already did.
    func startClose() -> Bool {
        self.state.withLockedValue { state in
            defer { state.closeSent = true }
            return !state.closeSent
        }
    }

    var closeFrame: TransportClose? { self.state.withLockedValue { $0.closeFrame } }
    var error: (any Error)? { self.state.withLockedValue { $0.error } }
}
