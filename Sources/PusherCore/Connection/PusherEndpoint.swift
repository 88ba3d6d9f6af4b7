// SPDX-License-Identifier: MIT

/// Where to connect: host, port, TLS and path prefix, and the URL they make.
public struct PusherEndpoint: Sendable, Hashable {
    public var host: String
    public var port: Int?
    public var useTLS: Bool
    /// A prefix before `/app/{key}`, for servers mounted under a path (soketi, Reverb behind a proxy).
    public var path: String

    public init(host: String, port: Int? = nil, useTLS: Bool = true, path: String = "") {
        self.host = host
        self.port = port
        self.useTLS = useTLS
        self.path = path
    }

    /// Pusher's hosted service: `ws-{cluster}.pusher.com`.
    public static func cluster(_ cluster: String, useTLS: Bool = true) -> PusherEndpoint {
        PusherEndpoint(host: "ws-\(cluster).pusher.com", useTLS: useTLS)
    }

    /// The protocol version this client speaks.
    public static let protocolVersion = 7

    /// `ws(s)://host:port{path}/app/{key}?protocol=7&client=…&version=…`.
    package func url(key: String, client: String, version: String) throws(PusherError) -> String {
        guard !self.host.isEmpty, !self.host.contains("/"), !self.host.contains(" ") else {
            throw PusherError(.invalidConfiguration, "invalid host '\(self.host)'")
        }
        guard !key.isEmpty, key.utf8.allSatisfy(PercentEncoding.isUnreserved) else {
            throw PusherError(.invalidConfiguration, "invalid app key")
        }
        let port = self.port ?? (self.useTLS ? 443 : 80)
        guard (1...65535).contains(port) else { throw PusherError(.invalidConfiguration, "invalid port \(port)") }
        var prefix = self.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty && !prefix.hasPrefix("/") { prefix = "/" + prefix }
        let host = self.host.contains(":") && !self.host.hasPrefix("[") ? "[\(self.host)]" : self.host
        let scheme = self.useTLS ? "wss" : "ws"
        return "\(scheme)://\(host):\(port)\(prefix)/app/\(key)?protocol=\(Self.protocolVersion)"
            + "&client=\(PercentEncoding.encode(client))&version=\(PercentEncoding.encode(version))"
    }
}
