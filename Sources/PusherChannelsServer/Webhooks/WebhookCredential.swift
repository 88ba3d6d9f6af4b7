// SPDX-License-Identifier: MIT

/// One app key and its secret, as webhooks are signed with them. Give a ``WebhookVerifier`` several
/// while you rotate keys: a webhook is accepted when it names one of the keys and is signed with
/// that key's secret.
public struct WebhookCredential: Sendable, Hashable, CustomStringConvertible {
    /// The app key that webhooks carry in `X-Pusher-Key`.
    public var key: String
    /// The app secret that signs them; never part of ``description``.
    public var secret: String

    /// A key and its secret.
    ///
    /// - Parameters:
    ///   - key: The app key.
    ///   - secret: The app secret.
    public init(key: String, secret: String) {
        self.key = key
        self.secret = secret
    }

    /// The key only.
    public var description: String { "WebhookCredential(key: \(self.key))" }
}
