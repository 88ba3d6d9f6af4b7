// SPDX-License-Identifier: MIT

/// Every failure of the server side: bad arguments and limits (found before any request is sent),
/// configuration mistakes, the HTTP API's answers, timeouts and transport failures, and webhooks or
/// authorization requests that do not verify.
///
/// Compare errors by ``code``. Neither ``message`` nor ``description`` ever holds the app secret,
/// the encryption master key or event data; ``responseBody`` is the server's answer as returned.
///
/// ```swift
/// do {
///     try await pusher.trigger(channel: "orders", event: "created", data: order)
/// } catch where error.code == .httpStatus {
///     print(error.httpStatus ?? 0, error.responseBody ?? "")
/// } catch where error.isRetryable {
///     // A timeout, a transport failure, 429 or 5xx: the event may or may not have been published.
/// }
/// ```
public struct PusherServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in minor releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidArgument, limitExceeded, invalidConfiguration, httpStatus, timeout, transport, cancelled
            case undecodableResponse, invalidSignature, unknownKey, invalidWebhook
        }
        private let base: Base

        /// An argument is not valid (an empty or malformed channel or event name, a `socket_id` that is
        /// not `digits.digits`, an encrypted channel among others, data that cannot be encoded).
        /// Nothing was sent.
        public static let invalidArgument = Code(base: .invalidArgument)
        /// A limit of ``PusherServerConfiguration/Limits`` was exceeded (channels per trigger, events
        /// per batch, data bytes, name lengths). Nothing was sent.
        public static let limitExceeded = Code(base: .limitExceeded)
        /// The configuration cannot be used: an invalid cluster, host, port, URL or master key, or an
        /// encrypted channel without a master key. Nothing was sent.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The server answered with a status outside 2xx; ``PusherServerError/httpStatus`` and
        /// ``PusherServerError/responseBody`` hold its answer. A redirect (3xx) is one: it is never
        /// followed by the default client.
        public static let httpStatus = Code(base: .httpStatus)
        /// No complete answer arrived within ``PusherServerConfiguration/timeout``.
        public static let timeout = Code(base: .timeout)
        /// The request could not be sent or its answer not received (DNS, TCP, TLS, a refused or
        /// dropped connection).
        public static let transport = Code(base: .transport)
        /// The calling task was cancelled. A request already sent may have been processed: a
        /// trigger may have been published. Not retryable (the caller asked to stop).
        public static let cancelled = Code(base: .cancelled)
        /// The server answered 2xx to a query with a body that is not the JSON the call expects.
        /// Never thrown by a trigger, a batch or send-to-user: once the server accepted the events,
        /// the call succeeds whatever the body.
        public static let undecodableResponse = Code(base: .undecodableResponse)
        /// A webhook's or request's signature does not match.
        public static let invalidSignature = Code(base: .invalidSignature)
        /// A webhook names a key this server does not know.
        public static let unknownKey = Code(base: .unknownKey)
        /// A webhook's body or headers are not a valid webhook (checked after its signature).
        public static let invalidWebhook = Code(base: .invalidWebhook)

        /// The code's name, such as `httpStatus`.
        public var description: String { self.base.rawValue }
    }

    /// At most this many bytes of an answer's body are kept in ``responseBody``.
    package static let maximumResponseBodyLength = 64 * 1024

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, for people. Never holds the secret, the master key or event data.
    public var message: String
    /// The HTTP status of the server's answer, for ``Code/httpStatus`` and
    /// ``Code/undecodableResponse``.
    public var httpStatus: Int?
    /// The body of the server's answer as returned (its first 64 KiB),
    /// for ``Code/httpStatus`` and ``Code/undecodableResponse``.
    public var responseBody: String?

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What went wrong; must not hold a secret or event data.
    ///   - httpStatus: The HTTP status of the server's answer, if there was one.
    ///   - responseBody: The body of the server's answer, if there was one.
    public init(_ code: Code, _ message: String, httpStatus: Int? = nil, responseBody: String? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.responseBody = responseBody
    }

    /// `body`, cut to ``maximumResponseBodyLength`` bytes.
    static func kept(_ body: String) -> String {
        guard body.utf8.count > Self.maximumResponseBodyLength else { return body }
        return String(decoding: body.utf8.prefix(Self.maximumResponseBodyLength), as: UTF8.self)
    }

    /// Whether sending the same request again may succeed: timeouts, transport failures, HTTP 429
    /// and 5xx. Argument, limit, configuration and other 4xx errors fail again the same way; a
    /// cancelled call is not retryable either.
    ///
    /// > Important: A trigger that timed out or failed in transport may have been published
    /// > already; sending it again can publish the event twice. ``PusherServer`` never retries.
    public var isRetryable: Bool {
        switch self.code {
        case .timeout, .transport: return true
        case .httpStatus:
            guard let httpStatus else { return false }
            return httpStatus == 429 || (500...599).contains(httpStatus)
        default: return false
        }
    }

    /// The code, the message and the HTTP status; the response body is in ``responseBody``.
    public var description: String {
        var text = "\(self.code): \(self.message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        return text
    }
}
