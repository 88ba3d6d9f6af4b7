// SPDX-License-Identifier: MIT

import PusherCrypto

/// Checks that webhooks come from Pusher, then reads their events.
///
/// A webhook is accepted when its `X-Pusher-Key` is one of the known keys and its
/// `X-Pusher-Signature` is the lowercase hex HMAC-SHA256 of the raw body bytes under that key's
/// secret. The key is looked up first, the signature is compared in constant time, and nothing of
/// the body is decoded before both pass: hand over the body exactly as it arrived, never JSON you
/// parsed and serialized again.
///
/// `time_ms` is not checked for freshness: servers disagree on its unit.
///
/// ```swift
/// let verifier = server.webhookVerifier
/// let webhook = try verifier.verify(key: request.headers["X-Pusher-Key"].first,
///                                   signature: request.headers["X-Pusher-Signature"].first,
///                                   body: bodyBytes)
/// for event in webhook.events { … }
/// ```
///
/// Neither the secrets nor the master key appear in ``description``, `debugDescription`, `dump` or
/// `Mirror`.
public struct WebhookVerifier: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let credentials: [WebhookCredential]
    private let masterKey: [UInt8]?

    /// A verifier for these keys.
    ///
    /// - Parameters:
    ///   - credentials: The key/secret pairs webhooks may be signed with (several while you rotate).
    ///   - masterKey: The app's encryption master key, to decrypt the client events of
    ///     private-encrypted channels; without it their data is kept encrypted.
    public init(credentials: [WebhookCredential], masterKey: PusherServerConfiguration.MasterKey? = nil) {
        self.credentials = credentials
        self.masterKey = masterKey?.bytes
    }

    /// Verifies a webhook and reads its events.
    ///
    /// - Parameters:
    ///   - key: The `X-Pusher-Key` header.
    ///   - signature: The `X-Pusher-Signature` header.
    ///   - body: The request body, byte for byte as received.
    /// - Returns: The webhook's events, in order.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/unknownKey`` when the key is
    ///   missing or unknown, ``PusherServerError/Code/invalidSignature`` when the signature is missing
    ///   or does not match (in both cases nothing was decoded), and
    ///   ``PusherServerError/Code/invalidWebhook`` when a correctly signed body is not a webhook.
    public func verify(key: String?, signature: String?, body: some Collection<UInt8>) throws(PusherServerError)
        -> Webhook
    {
        let bytes = Array(body)
        try self.authenticate(key: key, signature: signature, body: bytes)
        return try WebhookDecoder.decode(bytes, masterKey: self.masterKey)
    }

    /// Verifies a webhook, reading `X-Pusher-Key` and `X-Pusher-Signature` from its headers (names
    /// compared case-insensitively; NIO's `HTTPHeaders` is such a sequence).
    ///
    /// - Parameters:
    ///   - headers: The request's headers.
    ///   - body: The request body, byte for byte as received.
    /// - Returns: The webhook's events, in order.
    /// - Throws: As ``verify(key:signature:body:)``.
    public func verify(headers: some Sequence<(name: String, value: String)>, body: some Collection<UInt8>)
        throws(PusherServerError) -> Webhook
    {
        var key: String?
        var signature: String?
        for header in headers {
            switch header.name.lowercased() {
            case "x-pusher-key": key = key ?? header.value
            case "x-pusher-signature": signature = signature ?? header.value
            default: break
            }
        }
        return try self.verify(key: key, signature: signature, body: body)
    }

    /// The keys, and whether there is a master key: `WebhookVerifier(keys: [KEY], masterKey: set)`.
    public var description: String {
        "WebhookVerifier(keys: [\(self.credentials.map(\.key).joined(separator: ", "))], masterKey: "
            + (self.masterKey == nil ? "none" : "set") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { self.description }

    /// The credentials (each with its secret redacted) and whether there is a master key (what
    /// `dump` shows).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["credentials": self.credentials, "masterKey": self.masterKey == nil ? "none" : "redacted"],
            displayStyle: .struct
        )
    }

    /// Throws unless `key` is known and `signature` is the body's signature under one of its secrets.
    package func authenticate(key: String?, signature: String?, body: [UInt8]) throws(PusherServerError) {
        guard let key, !key.isEmpty else {
            throw PusherServerError(.unknownKey, "the webhook has no X-Pusher-Key")
        }
        let secrets = self.credentials.filter { $0.key == key }.map(\.secret)
        guard !secrets.isEmpty else {
            throw PusherServerError(.unknownKey, "the webhook's X-Pusher-Key \(key) is not a known key")
        }
        guard let signature, !signature.isEmpty else {
            throw PusherServerError(.invalidSignature, "the webhook has no X-Pusher-Signature")
        }
        var matches = false
        for secret in secrets {
            // Every secret of the key is tried, in constant time each, whatever matched before.
            let match = Hex.constantTimeEquals(HMACSHA256.hex(key: secret, message: body), signature)
            matches = matches || match
        }
        guard matches else {
            throw PusherServerError(
                .invalidSignature, "the webhook's X-Pusher-Signature is not the signature of its body")
        }
    }
}

extension PusherServer {
    /// A verifier for webhooks signed with this configuration's key and secret, decrypting the client
    /// events of private-encrypted channels with its encryption master key (when it has one).
    public var webhookVerifier: WebhookVerifier {
        WebhookVerifier(
            credentials: [WebhookCredential(key: self.configuration.key, secret: self.configuration.secret)],
            masterKey: self.configuration.encryptionMasterKey
        )
    }
}
