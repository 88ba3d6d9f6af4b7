// SPDX-License-Identifier: MIT

/// Event names the protocol reserves.
package enum PusherEventName {
    package static let connectionEstablished = "pusher:connection_established"
    package static let error = "pusher:error"
    package static let ping = "pusher:ping"
    package static let pong = "pusher:pong"
    package static let subscribe = "pusher:subscribe"
    package static let unsubscribe = "pusher:unsubscribe"
    package static let subscriptionError = "pusher:subscription_error"
    package static let subscriptionSucceeded = "pusher_internal:subscription_succeeded"
    package static let subscriptionCount = "pusher_internal:subscription_count"
    package static let memberAdded = "pusher_internal:member_added"
    package static let memberRemoved = "pusher_internal:member_removed"
    package static let signIn = "pusher:signin"
    package static let signInSuccess = "pusher:signin_success"
    package static let watchlistEvents = "pusher_internal:watchlist_events"
    package static let cacheMiss = "pusher:cache_miss"

    /// The prefix of the protocol's own events (`pusher:ping`, `pusher:error`, …).
    package static let pusherPrefix = "pusher:"
    /// The prefix of the events a server sends for the client library (`pusher_internal:member_added`, …).
    package static let internalPrefix = "pusher_internal:"

    /// Whether `name` is one of the protocol's events: it starts with ``pusherPrefix`` or
    /// ``internalPrefix``, compared byte for byte. `pusher-update` and `pusherX` are not.
    package static func isProtocolEvent(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.first == UInt8(ascii: "p") else { return false }
        return utf8.starts(with: Self.pusherPrefix.utf8) || utf8.starts(with: Self.internalPrefix.utf8)
    }
}
