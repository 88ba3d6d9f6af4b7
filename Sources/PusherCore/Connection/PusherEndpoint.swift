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
    package static let protocolVersion = 7

    /// `ws(s)://host:port{path}/app/{key}?protocol=7&client=…&version=…`.
    ///
    /// Validates everything first, so that a mistake fails at once as `invalidConfiguration` instead
    /// of being retried as a connection failure: the host is a DNS name (labels of letters, digits,
    /// `-` and `_`, at most 63 bytes each, 253 in all) or an IP address literal; a Pusher cluster
    /// host (`ws-{cluster}.pusher.com`) names its cluster in one DNS label; the port is 1–65535; the
    /// path has only URL path characters; the key only unreserved characters.
    package func url(key: String, client: String, version: String) throws(PusherError) -> String {
        try Self.validateHost(self.host)
        guard !key.isEmpty, key.utf8.count <= 256, key.utf8.allSatisfy(PercentEncoding.isUnreserved) else {
            throw PusherError(
                .invalidConfiguration, "invalid app key: it must be 1–256 letters, digits, '-', '.', '_' or '~'")
        }
        let port = self.port ?? (self.useTLS ? 443 : 80)
        guard (1...65535).contains(port) else {
            throw PusherError(.invalidConfiguration, "invalid port \(port): it must be 1–65535")
        }
        guard self.path.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "/") }) else {
            throw PusherError(
                .invalidConfiguration,
                "invalid path '\(Self.printable(self.path))': only letters, digits, '-', '.', '_', '~' and '/'")
        }
        var prefix = self.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty && !prefix.hasPrefix("/") { prefix = "/" + prefix }
        let host = self.host.contains(":") && !self.host.hasPrefix("[") ? "[\(self.host)]" : self.host
        let scheme = self.useTLS ? "wss" : "ws"
        return "\(scheme)://\(host):\(port)\(prefix)/app/\(key)?protocol=\(Self.protocolVersion)"
            + "&client=\(PercentEncoding.encode(client))&version=\(PercentEncoding.encode(version))"
    }

    private static func validateHost(_ host: String) throws(PusherError) {
        let invalid = PusherError(
            .invalidConfiguration, "invalid host '\(Self.printable(host))': expected a DNS name or an IP address")
        if host.hasPrefix("[") {
            // A bracketed IPv6 literal.
            guard host.hasSuffix("]"), host.utf8.count > 2,
                host.utf8.dropFirst().dropLast().allSatisfy({
                    Self.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
                })
            else { throw invalid }
            return
        }
        if host.contains(":") {
            // A bare IPv6 literal.
            guard host.utf8.allSatisfy({ Self.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { throw invalid }
            return
        }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        guard !name.isEmpty, name.utf8.count <= 253 else { throw invalid }
        if name.hasPrefix("ws-"), name.hasSuffix(".pusher.com") {
            let cluster = name.dropFirst(3).dropLast(11)
            guard !cluster.isEmpty, cluster.utf8.count <= 60, cluster.utf8.allSatisfy(Self.isLabelByte) else {
                throw PusherError(
                    .invalidConfiguration,
                    "invalid cluster '\(Self.printable(String(cluster)))': expected one DNS label such as 'eu' or 'mt1'"
                )
            }
        }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63, label.utf8.allSatisfy(Self.isLabelByte),
                label.utf8.first != UInt8(ascii: "-"), label.utf8.last != UInt8(ascii: "-")
            else { throw invalid }
        }
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    /// `text` with control characters escaped and at most 64 characters, for error messages.
    package static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(64) {
            result += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text.unicodeScalars.count > 64 ? result + "…" : result
    }
}
