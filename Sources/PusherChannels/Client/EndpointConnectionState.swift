// SPDX-License-Identifier: MIT

import PusherCore

/// A connection state with the endpoint of the latest attempt at the moment it was published: for
/// ``ConnectionState/connecting(attempt:)``, the endpoint that attempt goes to.
///
/// Read together, so that what prints or annotates a state names the endpoint of that state, not
/// the one of a later attempt (``PusherClient/currentEndpoint`` read afterwards may already have
/// moved on). For the package's command-line client.
package struct EndpointConnectionState: Sendable, Hashable {
    package var state: ConnectionState
    /// Nil only for the state a sequence starts with when nothing was published yet (`initialized`).
    package var endpoint: PusherEndpoint?

    package init(state: ConnectionState, endpoint: PusherEndpoint?) {
        self.state = state
        self.endpoint = endpoint
    }
}
