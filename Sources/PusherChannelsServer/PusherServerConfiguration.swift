// SPDX-License-Identifier: MIT

/// Where and as whom a ``PusherServer`` calls the Channels HTTP API.
///
/// ```swift
/// let configuration = try PusherServerConfiguration(
///     appID: "1234", key: "278d425bdf160c739803", secret: secret, cluster: "eu")
/// // or from the PUSHER_URL form the other server libraries read:
/// let fromURL = try PusherServerConfiguration(url: "https://KEY:SECRET@api-eu.pusher.com/apps/1234")
/// ```
///
/// The secret and the master key never appear in ``description``, in `dump` or in `Mirror`.
public struct PusherServerConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The app's id (the `ID` of `/apps/ID`).
    public let appID: String
    /// The app's key.
    public let key: String
    /// The app's secret. Keep it on your servers; never print it.
    public let secret: String
    /// The HTTP API's host, such as `api-eu.pusher.com`.
    public let host: String
    /// The HTTP API's port.
    public let port: Int
    /// Whether requests use HTTPS.
    public let useTLS: Bool
    /// How long a call waits for the server's complete answer before failing with
    /// ``PusherServerError/Code/timeout``. Must be positive.
    public var timeout: Duration
    /// The key that private-encrypted channels' events are encrypted with, if the app uses them.
    public var encryptionMasterKey: MasterKey?
    /// The limits checked before a request is sent (``Limits/pusher`` by default).
    public var limits: Limits

    /// A configuration for Pusher's hosted service: HTTPS to `api-CLUSTER.pusher.com`, port 443.
    ///
    /// - Parameters:
    ///   - appID: The app's id.
    ///   - key: The app's key.
    ///   - secret: The app's secret.
    ///   - cluster: The app's cluster, such as `eu` or `mt1`: one DNS label.
    ///   - timeout: How long a call waits for the server's answer (5 seconds by default).
    ///   - encryptionMasterKey: The master key of private-encrypted channels, if any.
    ///   - limits: The limits checked before sending (Pusher's by default).
    /// - Throws: ``PusherServerError`` `invalidConfiguration` when the cluster is not one DNS label or
    ///   the id, key or secret is empty.
    public init(
        appID: String,
        key: String,
        secret: String,
        cluster: String,
        timeout: Duration = .seconds(5),
        encryptionMasterKey: MasterKey? = nil,
        limits: Limits = .pusher
    ) throws(PusherServerError) {
        guard ConfigurationRules.isDNSLabel(cluster) else {
            throw PusherServerError(
                .invalidConfiguration, "the cluster must be one DNS label (letters, digits and '-'), such as 'eu'")
        }
        try self.init(
            appID: appID, key: key, secret: secret, host: "api-\(cluster.lowercased()).pusher.com", port: 443,
            useTLS: true, timeout: timeout, encryptionMasterKey: encryptionMasterKey, limits: limits)
    }

    /// A configuration for any host that speaks the Channels HTTP API (soketi, Laravel Reverb,
    /// sockudo, `FakePusherServer`, a proxy).
    ///
    /// - Parameters:
    ///   - appID: The app's id.
    ///   - key: The app's key.
    ///   - secret: The app's secret.
    ///   - host: The host name or IP address (an IPv6 address without brackets).
    ///   - port: The port; `nil` means 443 with TLS and 80 without.
    ///   - useTLS: Whether to use HTTPS (the default) or plain HTTP.
    ///   - timeout: How long a call waits for the server's answer (5 seconds by default).
    ///   - encryptionMasterKey: The master key of private-encrypted channels, if any.
    ///   - limits: The limits checked before sending (Pusher's by default; self-hosted servers may
    ///     differ, see ``Limits/none``).
    /// - Throws: ``PusherServerError`` `invalidConfiguration` when the host or port is invalid or the
    ///   id, key or secret is empty.
    public init(
        appID: String,
        key: String,
        secret: String,
        host: String,
        port: Int? = nil,
        useTLS: Bool = true,
        timeout: Duration = .seconds(5),
        encryptionMasterKey: MasterKey? = nil,
        limits: Limits = .pusher
    ) throws(PusherServerError) {
        guard ConfigurationRules.isAppID(appID) else {
            throw PusherServerError(
                .invalidConfiguration, "the app id must be non-empty letters, digits, '-' and '_'")
        }
        guard !key.isEmpty else { throw PusherServerError(.invalidConfiguration, "the key is empty") }
        guard !secret.isEmpty else { throw PusherServerError(.invalidConfiguration, "the secret is empty") }
        guard ConfigurationRules.isHost(host) else {
            throw PusherServerError(
                .invalidConfiguration, "the host must be a host name or an IP address without scheme, port or path")
        }
        let port = port ?? (useTLS ? 443 : 80)
        guard (1...65_535).contains(port) else {
            throw PusherServerError(.invalidConfiguration, "the port must be between 1 and 65535, not \(port)")
        }
        self.appID = appID
        self.key = key
        self.secret = secret
        self.host = host
        self.port = port
        self.useTLS = useTLS
        self.timeout = timeout
        self.encryptionMasterKey = encryptionMasterKey
        self.limits = limits
    }

    /// The base URL requests go to, such as `https://api-eu.pusher.com:443`.
    var baseURL: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "\(self.useTLS ? "https" : "http")://\(host):\(self.port)"
    }

    /// The app id, key, endpoint, timeout and limits; never the secret or the master key.
    public var description: String {
        var text = "PusherServerConfiguration(appID: \(self.appID), key: \(self.key), endpoint: \(self.baseURL)"
        text += ", timeout: \(self.timeout), limits: \(self.limits)"
        text += ", encryptionMasterKey: \(self.encryptionMasterKey == nil ? "none" : "set"))"
        return text
    }

    /// The same as ``description``: never the secret or the master key.
    public var debugDescription: String { self.description }

    /// The fields without the secret and the master key (what `dump` shows).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "appID": self.appID, "key": self.key, "host": self.host, "port": self.port, "useTLS": self.useTLS,
                "timeout": self.timeout, "limits": self.limits,
            ],
            displayStyle: .struct
        )
    }
}
