// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// Flow control between a client's consumers and its sockets: closed while any consumer with the
/// `pauseReading` policy holds more than its limit, open again once every such consumer has taken
/// its backlog down to half (or ended).
///
/// A ``Consumer`` holds the gate when it goes over its limit and releases it when it drains
/// or finishes, once each way. After handing a read's messages over, the client asks the gate
/// whether the socket may read on (``pauseUnlessOpen(_:)``); while it is closed the transport
/// reads no more, so nothing more is decrypted or delivered, and TCP slows the server down. When
/// the gate opens, every paused socket is told to read again.
package final class FlowGate: Sendable {
    private struct State {
        /// Consumers over their limit.
        var holders = 0
        /// What resumes each socket paused at the gate, by the key its pause was given.
        var resumers: [UInt64: @Sendable () -> Void] = [:]
        var lastKey: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Whether no consumer is over its limit.
    package var isOpen: Bool {
        self.state.withLockedValue { $0.holders == 0 }
    }

    /// A consumer went over its limit: the gate closes.
    func hold() {
        self.state.withLockedValue { $0.holders += 1 }
    }

    /// A consumer that held the gate drained or ended: the gate opens when it was the last one,
    /// and every paused socket is resumed (its transport reads again on its own thread).
    func release() {
        let resumers = self.state.withLockedValue { state -> [@Sendable () -> Void] in
            precondition(state.holders > 0, "FlowGate released more often than held")
            state.holders -= 1
            guard state.holders == 0, !state.resumers.isEmpty else { return [] }
            defer { state.resumers = [:] }
            return Array(state.resumers.values)
        }
        for resume in resumers { resume() }
    }

    /// When the gate is closed, keeps `resume` to call once it opens and returns the pause's key
    /// (the socket must pause); returns nil when it is open. Checked and kept under one lock, so
    /// an opening in between is not missed.
    package func pauseUnlessOpen(_ resume: @escaping @Sendable () -> Void) -> UInt64? {
        self.state.withLockedValue { state in
            guard state.holders > 0 else { return nil }
            state.lastKey &+= 1
            state.resumers[state.lastKey] = resume
            return state.lastKey
        }
    }

    /// Forgets the pause of `key` (its socket was closed or resumed another way), so the gate
    /// keeps nothing of a socket that is gone.
    package func cancelPause(_ key: UInt64) {
        _ = self.state.withLockedValue { $0.resumers.removeValue(forKey: key) }
    }

    /// How many sockets wait for the gate now (for the package's tests).
    package var waiterCount: Int {
        self.state.withLockedValue { $0.resumers.count }
    }
}
