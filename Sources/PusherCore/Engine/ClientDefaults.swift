// SPDX-License-Identifier: MIT

/// The one definition of every default timeout, limit and rate of the client. `PusherClientConfiguration`
/// starts from these values and documents them; the machines' and the engine's configurations
/// take them as their defaults instead of repeating the numbers.
package enum ClientDefaults {
    /// Inactivity after which the client pings.
    package static let activityTimeout = Duration.seconds(120)
    /// How long to wait for any message after a ping.
    package static let pongTimeout = Duration.seconds(30)
    /// How long the socket may take to open and deliver `pusher:connection_established`.
    package static let handshakeTimeout = Duration.seconds(10)
    /// How long a close the client started may take before the socket is dropped.
    package static let closeTimeout = Duration.seconds(5)
    /// How long the authorizer (and the user authenticator) may take to answer.
    package static let authorizationTimeout = Duration.seconds(10)
    /// Client events sent per second at most.
    package static let clientEventRateLimit = 10
    /// Client events that may wait for one channel's subscription, and for the rate limit in all.
    package static let clientEventQueueLimit = 100
    /// Members kept per presence channel at most.
    package static let maximumPresenceMembers = 10_000
    /// Bytes of members kept per presence channel at most.
    package static let maximumPresenceBytes = 16 << 20
    /// Events held per encrypted channel while its key reloads, at most.
    package static let maximumHeldEncryptedEvents = 1_000
    /// Bytes of events held per encrypted channel while its key reloads, at most.
    package static let maximumHeldEncryptedBytes = 16 << 20
    /// At most one key reload per encrypted channel per this interval.
    package static let keyReloadInterval = Duration.seconds(10)
    /// The largest message accepted from the server, in bytes.
    package static let maximumMessageSize = 1 << 20
    /// Bytes of outbound messages that may wait for a socket.
    package static let outboundBufferLimit = 16 << 20
}
