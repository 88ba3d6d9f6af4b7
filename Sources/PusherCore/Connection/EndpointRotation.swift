// SPDX-License-Identifier: MIT

/// Which endpoint the next connection attempt goes to, as a pure state machine.
///
/// Endpoints are tried in order, round robin: an attempt that ended before the connection was
/// established (refused, a TLS failure, a handshake timeout, a close before
/// `pusher:connection_established`) moves the next attempt to the next endpoint; a connection that
/// was established and then dropped is reconnected to the same endpoint first. The backoff between
/// attempts is the connection state machine's, unchanged.
///
/// The driver asks ``nextAttempt()`` each time it opens a socket and tells every published
/// ``ConnectionState`` to ``stateChanged(_:)``; ``replace(first:fallbacks:)`` switches to other
/// endpoints at runtime.
package struct EndpointRotation<Endpoint: Sendable>: Sendable {
    /// The endpoints, in the order they are tried; never empty.
    package private(set) var endpoints: [Endpoint]
    /// The index of the endpoint of the latest attempt (the one the next attempt starts from).
    package private(set) var index = 0
    /// Whether an attempt was opened and has not been established (yet): if it ends that way, the
    /// next attempt goes to the next endpoint.
    private var unprovenAttempt = false

    /// A rotation over `first` then `fallbacks`, starting at `first`.
    package init(first: Endpoint, fallbacks: [Endpoint] = []) {
        self.endpoints = [first] + fallbacks
    }

    /// The endpoint of the latest attempt (or of the first one, before any).
    package var current: Endpoint { self.endpoints[self.index] }

    /// The endpoint for the attempt being opened now, and whether it differs from the previous
    /// attempt's because that one was never established.
    package mutating func nextAttempt() -> (endpoint: Endpoint, movedOn: Bool) {
        let movedOn = self.unprovenAttempt && self.endpoints.count > 1
        if self.unprovenAttempt { self.index = (self.index + 1) % self.endpoints.count }
        self.unprovenAttempt = true
        return (self.current, movedOn)
    }

    /// The connection's state changed: `connected` proves the current endpoint (a later drop
    /// reconnects to it first); `disconnected` (on request) gives the attempt up without holding it
    /// against the endpoint, so the next ``nextAttempt()`` starts from the same one.
    package mutating func stateChanged(_ state: ConnectionState) {
        switch state {
        case .connected, .disconnected: self.unprovenAttempt = false
        case .initialized, .connecting, .reconnecting, .failed: break
        }
    }

    /// Replaces the endpoints (the client's `switchEndpoint`): the next attempt goes to `first`.
    package mutating func replace(first: Endpoint, fallbacks: [Endpoint] = []) {
        self.endpoints = [first] + fallbacks
        self.index = 0
        self.unprovenAttempt = false
    }
}
