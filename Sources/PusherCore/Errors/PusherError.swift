// SPDX-License-Identifier: MIT

/// Every failure this package reports: connection closes, server errors, bad input, misuse.
///
/// Compare errors by ``code``; the other fields say more. ``closeCode`` carries the WebSocket close
/// code or the `code` of a `pusher:error` message exactly as the server sent it. A server's refusal
/// of a subscription (`pusher:subscription_error`, as soketi, Laravel Reverb and
/// `pusher-channels serve` send it) keeps its `type` in ``serverErrorType``, its `error` (or `message`)
/// in ``message`` and its `status` in ``httpStatus``: what pusher-js hands its apps as
/// `{type, error, status}`.
public struct PusherError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in minor releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case connectionClosed, transportFailed, handshakeTimeout, pongTimeout
            case reconnectAttemptsExhausted, serverError, malformedMessage, invalidChannelName
            case decodingFailed, consumerTooSlow, subscriptionFailed, authorizationRequired, authorizationFailed
            case alreadyRunning, invalidConfiguration, clientEventRejected, signInFailed, encryptionUnavailable
            case messageTooLarge, tlsFailed, limitExceeded, protocolViolation, proxyFailed
        }
        private let base: Base

        /// The server closed the connection; ``PusherError/closeCode`` holds the code.
        public static let connectionClosed = Code(base: .connectionClosed)
        /// The connection could not be opened or broke (DNS, TCP, TLS, upgrade refused, reset).
        public static let transportFailed = Code(base: .transportFailed)
        /// The socket opened but `pusher:connection_established` did not arrive in time, or an
        /// HTTP proxy did not answer `CONNECT` within the handshake timeout.
        public static let handshakeTimeout = Code(base: .handshakeTimeout)
        /// A ping went unanswered for the pong timeout; the socket was dropped.
        public static let pongTimeout = Code(base: .pongTimeout)
        /// The configured maximum number of reconnection attempts was used up.
        public static let reconnectAttemptsExhausted = Code(base: .reconnectAttemptsExhausted)
        /// The server sent `pusher:error`.
        public static let serverError = Code(base: .serverError)
        /// A received frame was not a valid protocol message (bad JSON, binary frame, missing fields).
        public static let malformedMessage = Code(base: .malformedMessage)
        /// A channel name is empty, too long, has characters Pusher rejects, or is reserved.
        public static let invalidChannelName = Code(base: .invalidChannelName)
        /// Event data could not be decoded into the requested type.
        public static let decodingFailed = Code(base: .decodingFailed)
        /// A consumer fell behind by more than its buffer allows (see `BufferingPolicy`).
        public static let consumerTooSlow = Code(base: .consumerTooSlow)
        /// The server refused a subscription.
        public static let subscriptionFailed = Code(base: .subscriptionFailed)
        /// The channel needs authorization and the client has no authorizer for it.
        public static let authorizationRequired = Code(base: .authorizationRequired)
        /// The authorizer failed (it threw, timed out, or its answer was unusable). The subscription
        /// failed; subscribing again retries.
        public static let authorizationFailed = Code(base: .authorizationFailed)
        /// A client event cannot be sent: its name lacks `client-`, its channel is not a private or
        /// presence channel with a consumer, or too many wait for the subscription.
        public static let clientEventRejected = Code(base: .clientEventRejected)
        /// User sign-in failed: the user authenticator threw, timed out or answered something unusable,
        /// or the server's `pusher:signin_success` named no user id. Sign-in is tried again after the
        /// next reconnect.
        public static let signInFailed = Code(base: .signInFailed)
        /// This build cannot open private-encrypted channels (libsodium was not available).
        public static let encryptionUnavailable = Code(base: .encryptionUnavailable)
        /// `run()` was called on a client that is already running or has finished.
        public static let alreadyRunning = Code(base: .alreadyRunning)
        /// The client configuration cannot form a valid connection URL, or an argument is not accepted
        /// (such as a provided authorization for a channel that cannot take one).
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The server sent a message larger than `PusherClientConfiguration.maximumMessageSize`. The client
        /// closed the socket with 1009 and reconnects.
        public static let messageTooLarge = Code(base: .messageTooLarge)
        /// The TLS handshake failed: the server's certificate was not trusted, did not name the host,
        /// had expired, or TLS itself failed. The message names the host and the reason. The client
        /// retries with its backoff, since a server's certificate can be fixed while it runs.
        public static let tlsFailed = Code(base: .tlsFailed)
        /// One of the client's documented limits was reached (presence roster size, events held during
        /// a key reload, queued outbound messages, key reloads per interval); the message names it.
        public static let limitExceeded = Code(base: .limitExceeded)
        /// The server broke the protocol in a way the client could recover from (a second
        /// `pusher:connection_established` on one connection); the message was ignored.
        public static let protocolViolation = Code(base: .protocolViolation)
        /// The proxy in front of the connection refused it or failed: an HTTP proxy answered
        /// `CONNECT` with a status other than 2xx (407 when it wants credentials), a SOCKS5 proxy
        /// sent a failure reply or refused the username and password, or the proxy closed the
        /// connection during its handshake. The message names the proxy (host and port, never its
        /// credentials) and its answer. The client retries with its backoff.
        public static let proxyFailed = Code(base: .proxyFailed)

        public var description: String { self.base.rawValue }
    }

    public var code: Code
    public var message: String
    /// The WebSocket close code, or the `code` of a `pusher:error`.
    public var closeCode: Int?
    /// The channel the error concerns, when there is one.
    public var channel: String?
    /// The HTTP status of an auth endpoint's answer, for `authorizationFailed`, of an HTTP proxy's
    /// refusal of `CONNECT`, for `proxyFailed`, or the `status` a server gave its refusal of a
    /// subscription (401 for a bad signature), for `subscriptionFailed`.
    public var httpStatus: Int?
    /// The server's own name for the failure, for `subscriptionFailed`: the `type` of a
    /// `pusher:subscription_error` (`"AuthError"` for a bad signature, `"LimitReached"`, …), as
    /// the server sent it. ``code`` is this package's classification; this is the server's.
    public var serverErrorType: String?
    /// The body of an auth endpoint's answer (at most 4 KiB of it), for `authorizationFailed`.
    public var responseBody: String?
    /// The underlying error, when there is one. Not part of equality.
    public var cause: (any Error & Sendable)?

    public init(
        _ code: Code,
        _ message: String,
        closeCode: Int? = nil,
        channel: String? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.closeCode = closeCode
        self.channel = channel
        self.cause = cause
    }

    public var description: String {
        var text = "\(self.code): \(self.message)"
        if let closeCode { text += " (code \(closeCode))" }
        if let channel { text += " [channel \(channel)]" }
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let serverErrorType { text += " (type \(serverErrorType))" }
        if let cause { text += " (cause: \(cause))" }
        return text
    }

    public static func == (lhs: PusherError, rhs: PusherError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.closeCode == rhs.closeCode
            && lhs.channel == rhs.channel && lhs.httpStatus == rhs.httpStatus && lhs.responseBody == rhs.responseBody
            && lhs.serverErrorType == rhs.serverErrorType
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.code)
        hasher.combine(self.message)
        hasher.combine(self.closeCode)
        hasher.combine(self.channel)
        hasher.combine(self.httpStatus)
        hasher.combine(self.serverErrorType)
    }
}
