// SPDX-License-Identifier: MIT

import PusherCore

/// A proxy the client connects through: an HTTP proxy (a `CONNECT` tunnel) or a SOCKS5 proxy,
/// with optional credentials.
///
/// Set it with ``PusherClientConfiguration/proxy`` (`.proxy(…)`), or let the client read the proxy
/// environment (`.environment`). The WebSocket and the package's auth endpoint calls both go
/// through it; `wss://` connections run TLS inside the tunnel, verified against the Pusher host.
///
/// ```swift
/// var configuration = PusherClientConfiguration(host: "ws.example.com")
/// configuration.proxy = .proxy(try PusherProxy(url: "http://user:secret@proxy.internal:3128"))
/// ```
///
/// Neither the username (which may be a token) nor the password appears in ``description``,
/// ``debugDescription``, a `Mirror` of the value or any error: the user info shows as `***`.
public struct PusherProxy: Sendable, Hashable {
    /// How the client talks to the proxy.
    public enum Kind: Sendable, Hashable {
        /// An HTTP proxy: the client asks for a tunnel with `CONNECT host:port` (for `ws://` and
        /// `wss://` alike), with Basic `Proxy-Authorization` when there is a username.
        case httpConnect
        /// A SOCKS5 proxy (RFC 1928): host names are resolved by the proxy; with a username, the
        /// username/password method of RFC 1929.
        case socks5
    }

    /// How the client talks to the proxy.
    public var kind: Kind
    /// The proxy's host name or IP address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The username for the proxy, if it asks for one. Never printed.
    public var username: String?
    /// The password for the proxy. Never printed.
    public var password: String?

    /// A proxy given part by part. ``PusherClient/connect()`` checks it (failing with
    /// `invalidConfiguration`): a host, a port from 1 to 65535, a username that is not empty when
    /// given, and for SOCKS5 a username and password of at most
    /// 255 UTF-8 bytes each.
    public init(_ kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// A proxy from its URL: `http://[user:pass@]host:port` (an HTTP proxy, `CONNECT`) or
    /// `socks5://[user:pass@]host:port` (`socks5h://` is taken as `socks5://`: names are always
    /// resolved by the proxy). The username and password are percent-decoded (write `%40` for an
    /// `@` in them); an IPv6 host goes in brackets. A trailing `/` is allowed, nothing else after
    /// the port.
    ///
    /// - Throws: `PusherError` with code `invalidConfiguration` for another scheme (`https://`
    ///   proxies included), a missing or invalid port, a missing host, a bad percent escape, an
    ///   empty username or one the part-by-part initializer's rules refuse. The error shows the URL
    ///   with its user info replaced by `***`.
    public init(url: String) throws(PusherError) {
        self = try ProxyURLParser.parse(url)
    }

    /// `host:port`, with brackets around an IPv6 address.
    var address: String {
        ProxyTunnel.authority(host: self.host, port: self.port)
    }

    /// What the proxy is called in messages: "HTTP proxy host:port" or "SOCKS5 proxy host:port".
    var name: String {
        switch self.kind {
        case .httpConnect: "HTTP proxy \(self.address)"
        case .socks5: "SOCKS5 proxy \(self.address)"
        }
    }
}

extension PusherProxy: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The proxy as a URL, its user info (username and password) shown as `***`:
    /// `http://***@proxy.internal:3128`.
    public var description: String {
        let scheme = self.kind == .httpConnect ? "http" : "socks5"
        let credentials = self.username == nil && self.password == nil ? "" : "***@"
        return "\(scheme)://\(credentials)\(self.address)"
    }

    /// The same as ``description``: neither the username nor the password is shown.
    public var debugDescription: String { "PusherProxy(\(self.description))" }

    /// The fields, with the username and password as `***`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "kind": self.kind, "host": self.host, "port": self.port,
                "username": self.username == nil ? "nil" : "***", "password": self.password == nil ? "nil" : "***",
            ],
            displayStyle: .struct)
    }
}

extension PusherProxy {
    /// Why the client cannot use this proxy, or nil when it can: a host, a port from 1 to 65535, a
    /// username that is not empty when given, and for SOCKS5 a
    /// username and password of at most 255 UTF-8 bytes each (RFC 1929 has one byte for each
    /// length). The reason never shows the username or password.
    var problem: String? {
        if self.host.isEmpty { return "no host" }
        if !(1...65535).contains(self.port) { return "the port must be a number from 1 to 65535" }
        if self.username?.isEmpty == true { return "an empty username (leave out the user info instead)" }
        if self.kind == .socks5 {
            if (self.username?.utf8.count ?? 0) > 255 { return "a SOCKS5 username is at most 255 bytes" }
            if (self.password?.utf8.count ?? 0) > 255 { return "a SOCKS5 password is at most 255 bytes" }
        }
        return nil
    }

    /// Throws `invalidConfiguration` with ``problem``, the proxy shown as its ``description``.
    func validate() throws(PusherError) {
        if let problem = self.problem {
            throw PusherError(.invalidConfiguration, "invalid option proxy \(self): \(problem)")
        }
    }
}
