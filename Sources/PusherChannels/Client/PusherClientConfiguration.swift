// SPDX-License-Identifier: MIT

import CoreMetrics
import NIOSSL
import PusherCore

/// How a ``PusherClient`` connects and behaves. Every field has a documented default.
///
/// ``PusherClient/connect()`` checks the configuration first and fails at once with
/// `invalidConfiguration`, naming the option, when one would crash or loop the client: every
/// timeout and delay (the backoff's included) must be more than zero and at most 365 days,
/// `maximumMessageSize` from 1 to 2³²−1, `outboundBufferLimit` and `maximumPresenceMembers` at
/// least 1, the backoff's factors numbers (not NaN), counts not negative; every endpoint
/// (``fallbackEndpoints`` too) must form a URL and ``headers`` must be ones the client may send.
public struct PusherClientConfiguration: Sendable {
    /// Where to connect. Defaults to Pusher's `mt1` cluster over TLS.
    public var endpoint: PusherEndpoint
    /// Endpoints tried after ``endpoint``, in order, round robin: an attempt that fails before the
    /// connection is established moves the next attempt (after the usual backoff) to the next
    /// endpoint; a connection that drops after it was established reconnects to the same endpoint
    /// first. A close code 4000–4099 before the handshake moves on too; the client stops only once
    /// every endpoint has refused that way in a row. Default none. See
    /// ``PusherClient/switchEndpoint(to:fallbacks:key:authorizer:)`` to change them at runtime.
    public var fallbackEndpoints: [PusherEndpoint] = []
    /// Headers added to the WebSocket upgrade request (`Origin`, `Authorization`, `Cookie`, …).
    /// Names are case-insensitive: two names that differ only in case are refused. `Host`,
    /// `Upgrade`, `Connection`, `Content-Length`, `Transfer-Encoding` and `Sec-WebSocket-*` are the
    /// client's own, and names that are not HTTP tokens or values with CR, LF or NUL are refused too:
    /// ``PusherClient/connect()`` fails with `invalidConfiguration`. Default none.
    public var headers: [String: String] = [:]
    /// Called before every connection attempt (reconnects included) for headers of that attempt's
    /// upgrade request, such as a short-lived token; they replace ``headers`` of the same name (any
    /// case). A provider that throws or returns a refused header fails the attempt (as
    /// `transportFailed` or `invalidConfiguration`) and the client backs off as after any failed
    /// attempt; one that does not return in time is bounded by ``handshakeTimeout``. Default none.
    public var headersProvider: (@Sendable () async throws -> [String: String])?
    /// Inactivity after which the client sends `pusher:ping`. The server's `activity_timeout`
    /// lowers it. Default 120 s.
    public var activityTimeout: Duration
    /// How long to wait for any message after a ping before dropping the socket and reconnecting.
    /// Default 30 s.
    public var pongTimeout: Duration
    /// How long the socket may take to open and deliver `pusher:connection_established`. Default 10 s.
    public var handshakeTimeout: Duration
    /// How long a close the client started may take before the socket is dropped. Default 5 s.
    public var closeTimeout: Duration
    /// Delays between reconnection attempts. Default: 1 s doubling to 30 s, 20 % jitter, unlimited.
    public var backoff: Backoff
    /// Whether `run()` connects at once. Default `true`; with `false`, call ``PusherClient/connect()``.
    public var connectsAutomatically: Bool
    /// The largest message accepted from the server: 1 to 2³²−1 bytes. Default 1 MiB (Pusher's own
    /// limit is 10 KiB for events, but self-hosted servers allow more). A message is held while
    /// its frames arrive, up to this size; a larger one closes the connection with 1009
    /// (`messageTooLarge`), and the client reconnects with the backoff.
    public var maximumMessageSize: Int
    /// How many undelivered events a slow consumer may accumulate, and what happens beyond that.
    public var buffering: BufferingPolicy
    /// The same for each consumer of the notification sequences (``PusherClient/connectionStates``,
    /// ``PusherClient/errors``, ``PusherClient/subscriptionEvents(on:)``,
    /// ``PusherClient/subscriptionCounts(on:)``, ``PusherClient/decryptionFailures(on:)``,
    /// ``PusherClient/watchlistEvents``, ``PusherClient/userStates``). By default
    /// (``BufferingPolicy/default``) nothing is lost: at 10 000 notifications behind, the client
    /// stops reading from the socket until the consumer has caught up. Connection states and
    /// errors of reconnection attempts do not come from the socket and keep coming while reading is
    /// paused: a consumer holds at most its limit plus 65 536 (or twice its limit, if more), and
    /// past that its oldest notification is dropped, logged and counted as any dropped event
    /// (`pusher_events_dropped_total`).
    /// `dropOldest` and `dropNewest` drop as they do for events; `fail` ends the consumer's
    /// sequence (these never throw: its loop ends) and logs `consumerTooSlow`.
    public var notificationBuffering: BufferingPolicy
    /// Authorizes private and presence channels. Without one, subscribing to them fails with
    /// `authorizationRequired`.
    public var authorizer: ChannelAuthorizer?
    /// Authenticates the user for ``PusherClient/signIn()``.
    public var userAuthenticator: UserAuthenticator?
    /// How long the authorizer (and the user authenticator) may take before the subscription (or
    /// sign-in) fails. Default 10 s.
    public var authorizationTimeout: Duration
    /// Client events sent per second at most; more wait their turn (Pusher rejects more than 10 per
    /// second with error 4301). Default 10.
    public var clientEventRateLimit: Int
    /// Client events that may wait for their channel's subscription, per channel, and for the rate
    /// limit, in all. Beyond it ``PusherClient/trigger(_:on:data:)`` throws `clientEventRejected`.
    /// Default 100.
    public var clientEventQueueLimit: Int
    /// Members kept per presence channel. A server that reports more gets a `limitExceeded` error
    /// on ``PusherClient/errors``; the members with the lowest ids are kept. Default 10 000
    /// (Pusher's own limit is 100 unless raised).
    public var maximumPresenceMembers: Int
    /// Bytes of members (ids and `user_info`) kept per presence channel. Beyond it, like beyond
    /// ``maximumPresenceMembers``, a `limitExceeded` error is reported and the lowest ids are kept.
    /// Default 16 MiB.
    public var maximumPresenceBytes: Int
    /// Events of one encrypted channel held while its key reloads. Later ones are reported on
    /// ``PusherClient/decryptionFailures(on:)`` with reason `heldEventsLimit`. Default 1 000.
    public var maximumHeldEncryptedEvents: Int
    /// Bytes of events (every string of each) of one encrypted channel held while its key reloads.
    /// Later ones are reported like those over ``maximumHeldEncryptedEvents``. Default 16 MiB.
    public var maximumHeldEncryptedBytes: Int
    /// At most one key reload per encrypted channel in this interval; an event that does not open
    /// meanwhile is reported as `cannotDecrypt`. Default 10 s.
    public var keyReloadInterval: Duration
    /// Bytes of outbound messages the client may queue for a socket that does not take them. Beyond
    /// it the socket is dropped, `limitExceeded` is reported and the client reconnects. Default 16 MiB.
    public var outboundBufferLimit: Int
    /// TLS settings for `wss://` (custom trust roots, client certificates). `nil` uses the system's
    /// trust store. To trust a private certificate authority, see
    /// ``trustCertificateAuthorities(pemFile:keepingSystemTrustStore:)``. A failed handshake or a
    /// refused certificate is reported as `tlsFailed`, naming the host and the reason.
    public var tlsConfiguration: TLSConfiguration?
    /// A proxy for the WebSocket and the package's auth endpoint calls: ``ProxySetting/direct``
    /// (the default), ``ProxySetting/proxy(_:)`` or ``ProxySetting/environment`` (`HTTPS_PROXY`,
    /// `ALL_PROXY`, `NO_PROXY`). A proxy that refuses is reported as `proxyFailed`, naming its
    /// answer, and the client retries with its backoff. See <doc:ProxiesHeadersAndFailover>.
    public var proxy: ProxySetting
    /// Metrics through swift-metrics: none until the application bootstraps a backend. Per-channel
    /// labels are off by default.
    public var metrics: Metrics
    /// What a subscription refused by the authorizer or the server does: end its channel's
    /// sequences with the error (``SubscriptionRetry/never``, the default), or subscribe again
    /// after a backoff while the sequences keep going (``SubscriptionRetry/backoff(_:)``). One
    /// policy for the client: the consumers of a channel share its one server subscription.
    public var subscriptionRetry: SubscriptionRetry

    /// A configuration for Pusher's hosted service in `cluster` (`ws-{cluster}.pusher.com`).
    public init(cluster: String = "mt1") {
        self.init(endpoint: .cluster(cluster))
    }

    /// A configuration for a self-hosted server (soketi, Laravel Reverb, sockudo, pusher-fake, …).
    public init(host: String, port: Int? = nil, useTLS: Bool = true, path: String = "") {
        self.init(endpoint: PusherEndpoint(host: host, port: port, useTLS: useTLS, path: path))
    }

    public init(endpoint: PusherEndpoint) {
        self.endpoint = endpoint
        self.activityTimeout = ClientDefaults.activityTimeout
        self.pongTimeout = ClientDefaults.pongTimeout
        self.handshakeTimeout = ClientDefaults.handshakeTimeout
        self.closeTimeout = ClientDefaults.closeTimeout
        self.backoff = Backoff()
        self.connectsAutomatically = true
        self.maximumMessageSize = ClientDefaults.maximumMessageSize
        self.buffering = .default
        self.notificationBuffering = .default
        self.tlsConfiguration = nil
        self.proxy = .direct
        self.metrics = Metrics()
        self.authorizer = nil
        self.userAuthenticator = nil
        self.clientEventRateLimit = ClientDefaults.clientEventRateLimit
        self.clientEventQueueLimit = ClientDefaults.clientEventQueueLimit
        self.maximumPresenceMembers = ClientDefaults.maximumPresenceMembers
        self.maximumPresenceBytes = ClientDefaults.maximumPresenceBytes
        self.maximumHeldEncryptedEvents = ClientDefaults.maximumHeldEncryptedEvents
        self.maximumHeldEncryptedBytes = ClientDefaults.maximumHeldEncryptedBytes
        self.keyReloadInterval = ClientDefaults.keyReloadInterval
        self.outboundBufferLimit = ClientDefaults.outboundBufferLimit
        self.authorizationTimeout = ClientDefaults.authorizationTimeout
        self.subscriptionRetry = .never
    }

    var stateMachineConfiguration: ConnectionStateMachine.Configuration {
        ConnectionStateMachine.Configuration(
            activityTimeout: self.activityTimeout,
            pongTimeout: self.pongTimeout,
            handshakeTimeout: self.handshakeTimeout,
            closeTimeout: self.closeTimeout,
            backoff: self.backoff
        )
    }
}

extension PusherClientConfiguration {
    /// What the client reports through swift-metrics.
    ///
    /// Nothing is recorded, and nothing costs, until the application bootstraps a metrics backend
    /// (`MetricsSystem.bootstrap(_:)`, or `withMetricsFactory(_:_:)` around the client's creation)
    /// or passes a ``factory``. Every metric is named `pusher_…`; see the "Metrics and tracing"
    /// article for the list.
    public struct Metrics: Sendable {
        /// Where metrics go. `nil` (the default) uses `MetricsSystem.factory` as it is when the
        /// client is created.
        public var factory: (any MetricsFactory)?
        /// Whether per-channel metrics (events delivered and dropped, consumers failed,
        /// authorizations, decryption failures, key reloads) carry a `channel` dimension. Off by
        /// default: every channel name becomes a time series, so turn it on only for a small, fixed
        /// set of channels. Clients sharing one metrics backend should agree on it: some backends
        /// (swift-prometheus among them) refuse a name seen both with and without the label.
        public var includesChannelLabel: Bool

        public init(factory: (any MetricsFactory)? = nil, includesChannelLabel: Bool = false) {
            self.factory = factory
            self.includesChannelLabel = includesChannelLabel
        }
    }
}
