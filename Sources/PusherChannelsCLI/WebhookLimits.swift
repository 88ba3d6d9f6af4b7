// SPDX-License-Identifier: MIT

/// What bounds `webhooks`, reachable from the internet by design: time, connections and bytes.
struct WebhookLimits: Sendable {
    /// Each request's head and body must arrive within this (``RequestDeadlineHandler``).
    var requestTimeout: Duration = .seconds(10)
    /// Connections open at once; a connection over it is closed as soon as it is accepted.
    var maximumConnections = 64
    /// Body bytes held, over every connection, before their signature was checked; a request
    /// whose body would go over gets 503 and its connection is closed.
    var unverifiedBytes = 8 << 20
    /// Larger bodies get 413 (Pusher's webhooks are far smaller).
    var maximumBodyBytes = 1 << 20
}
