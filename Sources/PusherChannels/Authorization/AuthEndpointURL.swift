// SPDX-License-Identifier: MIT

import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An auth endpoint's URL as a request through a proxy needs it: the scheme, the host (without
/// the brackets of an IPv6 address), the port and the request target.
struct AuthEndpointURL: Sendable, Equatable {
    /// `https`: TLS to the endpoint, through a tunnel.
    var useTLS: Bool
    /// The host name or IP address, without brackets.
    var host: String
    /// The port, 80 or 443 when the URL gives none.
    var port: Int
    /// The path and query (`/pusher/auth?x=1`), `/` when the URL has no path.
    var originForm: String

    /// Reads `text`; nil unless it is an `http://` or `https://` URL with a host and a valid port.
    init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        // A DNS name is at most 253 bytes; a SOCKS5 request carries at most 255, and nothing of a
        // host may break the request line or a header.
        guard !host.isEmpty, host.utf8.count <= 253, (1...65535).contains(port),
            !host.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
            })
        else { return nil }
        self.useTLS = scheme == "https"
        self.host = host
        self.port = port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.originForm = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// Whether the host is an IP address literal (no SNI, the certificate checked against the address).
    var isIPAddress: Bool { (try? SocketAddress(ipAddress: self.host, port: 0)) != nil }

    /// The `Host` header: the host, bracketed when IPv6, with the port unless it is the scheme's default.
    var hostHeader: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return self.port == (self.useTLS ? 443 : 80) ? host : "\(host):\(self.port)"
    }

    /// The absolute-URI form of the request target (`http://host:port/path`), for a plain-http
    /// request to an HTTP proxy.
    var absoluteForm: String {
        "\(self.useTLS ? "https" : "http")://\(self.hostHeader)\(self.originForm)"
    }
}
