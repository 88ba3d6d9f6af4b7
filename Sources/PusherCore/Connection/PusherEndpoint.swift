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
    public func url(key: String, client: String, version: String) throws(PusherError) -> String {
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

/// Percent-encoding of everything but RFC 3986's unreserved characters, for URL query values and
/// `application/x-www-form-urlencoded` bodies.
public enum PercentEncoding {
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    public static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }
}
