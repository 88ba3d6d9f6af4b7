// SPDX-License-Identifier: MIT

// A webhook target's secret never appears in `description`, `debugDescription`, `dump` or `Mirror`
// (test logs and failure messages print them).
extension FakePusherServer.WebhookTarget: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL and key; the secret as `redacted` (or `nil` when the server's own is used).
    public var description: String {
        "WebhookTarget(url: \(self.url), key: \(self.key ?? "nil"), secret: \(self.secret == nil ? "nil" : "redacted"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { self.description }

    /// The URL, the key, and the secret as `redacted` (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": self.url, "key": self.key as Any, "secret": self.secret == nil ? "nil" : "redacted",
            ], displayStyle: .struct)
    }
}
