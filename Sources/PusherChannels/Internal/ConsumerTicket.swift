// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// One consumer's registration, from the moment its iterator (or scope) is made: pending until
/// the client actor hands it to the engine, then registered under the engine's number, released
/// when its iterator or scope goes away. The lock settles a release that races the registration:
/// whichever comes second does the clean-up.
final class ConsumerTicket: Sendable {
    enum State: Sendable {
        case pending
        case registered(ConsumerID)
        /// The engine refused it (an invalid name, a missing authorizer), or the client had finished.
        case refused(PusherError?)
        case released
    }

    private let state = NIOLockedValueBox(State.pending)

    var current: State { self.state.withLockedValue { $0 } }

    /// Records the engine's number; false when the ticket was released meanwhile (the caller then
    /// removes the consumer again).
    func registered(as id: ConsumerID) -> Bool {
        self.state.withLockedValue { state in
            guard case .pending = state else { return false }
            state = .registered(id)
            return true
        }
    }

    func refused(_ error: PusherError?) {
        self.state.withLockedValue { state in
            if case .pending = state { state = .refused(error) }
        }
    }

    /// Whether the ticket is still wanted (not released).
    var isPending: Bool {
        self.state.withLockedValue { if case .pending = $0 { true } else { false } }
    }

    /// Ends the registration; returns the engine's number when the consumer must be removed.
    func release() -> ConsumerID? {
        self.state.withLockedValue { state in
            defer { state = .released }
            if case .registered(let id) = state { return id }
            return nil
        }
    }
}
