// SPDX-License-Identifier: MIT

// A webhook target's secret never appears in `description`, `debugDescription`, `dump` or `Mirror`
// (test logs and failure messages print them).
extension FakePusherServer.WebhookTarget: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL and key; the secret as `redacted` (or `nil` when the server's own is used).
    public var description: String {
        "WebhookTarget(url: \(self.redactedURL), key: \(self.key ?? "nil"), secret: \(self.secret == nil ? "nil" : "redacted"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { self.description }

    /// The URL, the key, and the secret as `redacted` (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": self.redactedURL, "key": self.key as Any, "secret": self.secret == nil ? "nil" : "redacted",
            ], displayStyle: .struct)
    }
}

extension FakePusherServer.WebhookTarget {
    /// ``url`` without the user name and password it may carry (`http://user:pass@host/` shows as
    /// `http://redacted@host/`).
    package var redactedURL: String { Self.redactingCredentials(self.url) }

    /// `url` with the user information of its authority (before `@`) replaced by `redacted`.
    package static func redactingCredentials(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + "redacted" + String(url[at...])
    }
}
