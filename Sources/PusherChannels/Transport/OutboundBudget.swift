// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherCore

/// The bytes of a connection's queued messages that the socket has not taken yet, against
/// ``TransportConfiguration/outboundBufferLimit``: a server that stops reading must not make the
/// client queue without bound. Shared by the transports.
package final class OutboundBudget: Sendable {
    private struct State {
        var bytes = 0
        var overflow: PusherError?
    }

    private let limit: Int
    private let state = NIOLockedValueBox(State())

    package init(limit: Int) {
        self.limit = limit
    }

    /// Counts `size` more bytes as queued. False (and from then on always false) when they would go
    /// over the limit: the connection must be dropped. One message larger than the limit alone is
    /// still taken when nothing waits.
    package func reserve(_ size: Int) -> Bool {
        self.state.withLockedValue { state in
            guard state.overflow == nil else { return false }
            guard state.bytes == 0 || state.bytes + size <= self.limit else {
                state.overflow = PusherError(
                    .limitExceeded,
                    "more than \(self.limit) bytes of outbound messages waited for the socket (outboundBufferLimit); the connection was dropped"
                )
                return false
            }
            state.bytes += size
            return true
        }
    }

    /// The socket took `size` bytes (or they will never be written).
    package func written(_ size: Int) {
        self.state.withLockedValue { $0.bytes -= size }
    }

    /// Why the connection was dropped, if the limit was hit.
    package var overflow: PusherError? { self.state.withLockedValue { $0.overflow } }
}
