// SPDX-License-Identifier: MIT

import NIOCore

/// The parts of a `ws://` or `wss://` URL a connection needs.
package struct WebSocketURL: Sendable, Hashable {
    package var useTLS: Bool
    package var host: String
    package var port: Int
    /// Path and query, as sent in the request line.
    package var target: String

    /// Whether `host` is an IP address literal (no SNI is sent for those).
    package var isIPAddress: Bool { (try? SocketAddress(ipAddress: self.host, port: 0)) != nil }

    /// The `Host` header: the port only when it is not the scheme's default.
    package var hostHeader: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return self.port == (self.useTLS ? 443 : 80) ? host : "\(host):\(self.port)"
    }

    package init(parsing url: String) throws(PusherError) {
        let rest: Substring
        if url.hasPrefix("wss://") {
            (self.useTLS, rest) = (true, url.dropFirst(6))
        } else if url.hasPrefix("ws://") {
            (self.useTLS, rest) = (false, url.dropFirst(5))
        } else {
            throw PusherError(.invalidConfiguration, "not a WebSocket URL: \(url)")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let target = rest[authorityEnd...]
        self.target = target.isEmpty ? "/" : (target.first == "?" ? "/" + target : String(target))
        var hostPart = authority
        var portPart: Substring?
        if authority.first == "[", let close = authority.firstIndex(of: "]") {
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let afterClose = authority[authority.index(after: close)...]
            if afterClose.first == ":" { portPart = afterClose.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw PusherError(.invalidConfiguration, "no host in \(url)") }
        self.host = String(hostPart)
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else {
                throw PusherError(.invalidConfiguration, "invalid port in \(url)")
            }
            self.port = port
        } else {
            self.port = self.useTLS ? 443 : 80
        }
    }
}
