// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import CoreMetrics
import Logging
import PusherCrypto

/// Publishes events and queries channels through the Pusher Channels HTTP API.
///
/// Create one per app and keep it: it is a value that shares its `HTTPClient` (and so its pooled
/// connections) with every copy. Any 2xx answer means the server accepted the call.
///
/// ```swift
/// let pusher = PusherServer(
///     configuration: try PusherServerConfiguration(appID: "1234", key: "KEY", secret: secret, cluster: "eu"))
/// try await pusher.trigger(channel: "orders", event: "created", data: #"{"id":42}"#)
/// ```
///
/// Every call checks its arguments and the configured ``PusherServerConfiguration/Limits`` before it
/// sends anything, signs the request as the protocol requires, and waits at most
/// ``PusherServerConfiguration/timeout`` for the answer. Calls are never retried, redirects are
/// never followed (a 3xx is an ``PusherServerError/Code/httpStatus`` error), and a connection that
/// cannot be established fails the call at once.
///
/// The calls:
///
/// | Call | HTTP request |
/// | --- | --- |
/// | `trigger(channel:…)`, `trigger(channels:…)` | `POST /apps/ID/events` |
/// | `triggerBatch(_:)` | `POST /apps/ID/batch_events` |
/// | `sendToUser(_:event:data:)` | `POST /apps/ID/events` on `#server-to-user-ID` |
/// | `terminateConnections(ofUser:)` | `POST /apps/ID/users/ID/terminate_connections` |
/// | `channels(prefix:info:)` | `GET /apps/ID/channels` |
/// | `channel(_:info:)` | `GET /apps/ID/channels/NAME` |
/// | `users(inPresenceChannel:)` | `GET /apps/ID/channels/NAME/users` |
/// | `get(path:query:)`, `post(path:body:)` | any other path under `/apps/ID/` |
///
/// Signing follows the protocol: `auth_key`, `auth_timestamp` (this machine's clock: the server
/// refuses timestamps more than 600 s off), `auth_version=1.0`, `body_md5` of the exact bytes sent
/// (the body is serialized once), and `auth_signature`. No call takes extra query parameters, so
/// `auth_*` and `body_md5` are always the signer's own.
///
/// ### Observability
///
/// Each call runs in a client span named `pusher.trigger`, `pusher.batch_trigger`,
/// `pusher.send_to_user`, `pusher.terminate_connections`, `pusher.channels`, `pusher.channel` or
/// `pusher.users`, `pusher.get` or `pusher.post` (swift-distributed-tracing), whose context goes into the request's headers. Each
/// request sent increments `pusher_server_requests_total` and records
/// `pusher_server_request_duration` (swift-metrics), both with the dimensions `call` (the span's
/// name without `pusher.`) and `status` (the HTTP status, `timeout`, `transport` or `cancelled`). Neither spans,
/// metrics nor logs hold the secret or event data; a failed span records the error's code and
/// HTTP status only.
public struct PusherServer: Sendable {
    /// The app, endpoint, timeout, master key and limits.
    public let configuration: PusherServerConfiguration
    let logger: Logger?
    /// Sends signed requests: AsyncHTTPClient, or a recording transport in tests.
    let transport: any PusherHTTPTransport
    /// The signing timestamp (seconds since the epoch); injectable for known-answer tests.
    let timestamp: @Sendable () -> Int
    /// The nonce of each encrypted event; injectable for known-answer tests.
    let nonce: @Sendable () -> [UInt8]
    /// Where metrics go; `nil` is `MetricsSystem.factory` (tests inject a recording one).
    let metricsFactory: (any MetricsFactory)?

    /// A server that calls the HTTP API through `httpClient`.
    ///
    /// Without a client, it uses one shared by the whole process (never shut down, like
    /// `HTTPClient.shared`, on the same event loop group) with `HTTPClient.shared`'s settings but
    /// safe for signed calls: it follows no redirect (a 3xx answer is an `httpStatus` error, so a
    /// trigger is never sent on to another origin or over plain HTTP) and does not retry a
    /// connection that could not be established (a refused connection fails the call at once; the
    /// configuration's timeout still bounds every call).
    ///
    /// A client you pass is used as it is: make it with `redirectConfiguration: .disallow`
    /// (a redirect it follows anyway fails the call with `httpStatus`, but the request went to the
    /// redirect's target too), and shut it down when you are done with it:
    ///
    /// ```swift
    /// var settings = HTTPClient.Configuration(redirectConfiguration: .disallow)
    /// settings.connectionPool.retryConnectionEstablishment = false
    /// let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    /// let pusher = PusherServer(configuration: configuration, httpClient: client)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The app, endpoint, timeout, master key and limits.
    ///   - httpClient: The client to send with; `nil` (the default) is the shared safe client
    ///     described above. Its connection pool keeps connections to the API open between calls.
    ///   - logger: Where to log each call at debug level (its name, status and duration; never the
    ///     secret or event data). `nil` logs nothing.
    public init(configuration: PusherServerConfiguration, httpClient: HTTPClient? = nil, logger: Logger? = nil) {
        self.init(
            configuration: configuration,
            transport: AsyncHTTPClientTransport(
                client: httpClient ?? AsyncHTTPClientTransport.sharedClient, baseURL: configuration.baseURL),
            logger: logger
        )
    }

    /// A server with an injected transport, clock and nonce source (tests).
    package init(
        configuration: PusherServerConfiguration,
        transport: any PusherHTTPTransport,
        logger: Logger? = nil,
        timestamp: @escaping @Sendable () -> Int = RequestSigner.currentTimestamp,
        nonce: @escaping @Sendable () -> [UInt8] = { SecretBox.randomNonce() },
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger
        self.timestamp = timestamp
        self.nonce = nonce
        self.metricsFactory = metricsFactory
    }
}
