// SPDX-License-Identifier: MIT

/// Event names the protocol reserves.
public enum PusherEventName {
    public static let connectionEstablished = "pusher:connection_established"
    public static let error = "pusher:error"
    public static let ping = "pusher:ping"
    public static let pong = "pusher:pong"
    public static let subscribe = "pusher:subscribe"
    public static let unsubscribe = "pusher:unsubscribe"
    public static let subscriptionError = "pusher:subscription_error"
    public static let subscriptionSucceeded = "pusher_internal:subscription_succeeded"
    public static let subscriptionCount = "pusher_internal:subscription_count"
    public static let memberAdded = "pusher_internal:member_added"
    public static let memberRemoved = "pusher_internal:member_removed"
    public static let signIn = "pusher:signin"
    public static let signInSuccess = "pusher:signin_success"
    public static let watchlistEvents = "pusher_internal:watchlist_events"
    public static let cacheMiss = "pusher:cache_miss"

    /// The prefix of the protocol's own events (`pusher:ping`, `pusher:error`, …).
    public static let pusherPrefix = "pusher:"
    /// The prefix of the events a server sends for the client library (`pusher_internal:member_added`, …).
    public static let internalPrefix = "pusher_internal:"

    /// Whether `name` is one of the protocol's events: it starts with ``pusherPrefix`` or
    /// ``internalPrefix``, compared byte for byte. `pusher-update` and `pusherX` are not.
    public static func isProtocolEvent(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.first == UInt8(ascii: "p") else { return false }
        return utf8.starts(with: Self.pusherPrefix.utf8) || utf8.starts(with: Self.internalPrefix.utf8)
    }
}
