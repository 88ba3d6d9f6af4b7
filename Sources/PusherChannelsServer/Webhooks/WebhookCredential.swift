// SPDX-License-Identifier: MIT

/// One app key and its secret, as webhooks are signed with them. Give a ``WebhookVerifier`` several
/// while you rotate keys: a webhook is accepted when it names one of the keys and is signed with
/// that key's secret.
///
/// The secret never appears in ``description``, `debugDescription`, `dump` or `Mirror`.
public struct WebhookCredential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The app key that webhooks carry in `X-Pusher-Key`.
    public var key: String
    /// The app secret that signs them; never part of ``description``, `dump` or `Mirror`.
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

    /// The key only: `WebhookCredential(key: KEY, secret: redacted)`.
    public var description: String { "WebhookCredential(key: \(self.key), secret: redacted)" }

    /// The same as ``description``.
    public var debugDescription: String { self.description }

    /// The key, and the secret as `redacted` (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(self, children: ["key": self.key, "secret": "redacted"], displayStyle: .struct)
    }
}
