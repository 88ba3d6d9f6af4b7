// SPDX-License-Identifier: MIT

/// An authorizer or user-authenticator call the engine awaits, in its one table of calls under
/// way (keyed by the call's timeout timer): when it started, and what the driver keeps to cancel
/// it, opaque to the engine.
package struct OutstandingCall: Sendable, Hashable {
    /// When the engine asked for the call (the clock of the `at:` inputs).
    package let start: Duration
    /// The driver's handle on the call (``ClientEngine/attach(_:toCall:)``): what cancels it, and
    /// what tells its answer from a superseded call's.
    package var handle: (any AnyObject & Sendable)?

    package init(start: Duration, handle: (any AnyObject & Sendable)? = nil) {
        self.start = start
        self.handle = handle
    }

    package static func == (lhs: OutstandingCall, rhs: OutstandingCall) -> Bool {
        lhs.start == rhs.start && lhs.handle === rhs.handle
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(self.start)
        hasher.combine(self.handle.map(ObjectIdentifier.init))
    }
}
