// SPDX-License-Identifier: MIT

import PusherCore

/// Reads a proxy URL (`http://[user:pass@]host:port`, `socks5://…`) into a ``PusherProxy``. Errors
/// show the URL with its password as `***`.
enum ProxyURLParser {
    static func parse(_ url: String) throws(PusherError) -> PusherProxy {
        let shown = Self.redacted(url)
        func invalid(_ reason: String) -> PusherError {
            PusherError(.invalidConfiguration, "invalid proxy URL \(shown): \(reason)")
        }
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw invalid("no scheme (use http:// or socks5://)")
        }
        let kind: PusherProxy.Kind
        switch url[..<schemeEnd.lowerBound].lowercased() {
        case "http": kind = .httpConnect
        case "socks5", "socks5h": kind = .socks5
        case let scheme: throw invalid("unknown scheme \(scheme):// (use http:// or socks5://)")
        }
        var authority = url[schemeEnd.upperBound...]
        if authority.last == "/" { authority = authority.dropLast() }
        var username: String?
        var password: String?
        // The last `@` ends the user info, whatever the password holds.
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                username = try Self.percentDecoded(userInfo[..<colon], invalid("a bad percent escape in the username"))
                password = try Self.percentDecoded(
                    userInfo[userInfo.index(after: colon)...], invalid("a bad percent escape in the password"))
            } else {
                username = try Self.percentDecoded(userInfo, invalid("a bad percent escape in the username"))
            }
        }
        guard !authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
            throw invalid("a proxy URL has no path, query or fragment")
        }
        let host: Substring
        let port: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("an unclosed [ in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            port = rest.first == ":" ? rest.dropFirst() : (rest.isEmpty ? nil : rest)
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
            port = nil
        }
        guard !host.isEmpty else { throw invalid("no host") }
        guard let port else { throw invalid("no port (write host:port)") }
        guard let number = Int(port), (1...65535).contains(number) else {
            throw invalid("the port must be a number from 1 to 65535")
        }
        let proxy = PusherProxy(kind, host: String(host), port: number, username: username, password: password)
        if let problem = proxy.problem { throw invalid(problem) }
        return proxy
    }

    /// `url` with its user info (from the scheme to the last `@`) replaced by `***`: neither the
    /// username (which may be a token) nor a password holding `/`, `@` or `:` shows.
    static func redacted(_ url: String) -> String {
        let authorityStart = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        guard let at = url[authorityStart...].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + "***" + String(url[at...])
    }

    /// `text` with its `%XX` escapes decoded as UTF-8 (``PercentEncoding``), or `failure`.
    private static func percentDecoded(_ text: Substring, _ failure: @autoclosure () -> PusherError)
        throws(PusherError) -> String
    {
        guard let decoded = PercentEncoding.decodeUTF8(text) else { throw failure() }
        return decoded
    }
}
