// SPDX-License-Identifier: MIT

import PusherCore

extension PusherServerConfiguration {
    /// A configuration from the URL form the other server libraries read from `PUSHER_URL`:
    /// `http(s)://KEY:SECRET@HOST[:PORT]/apps/ID`.
    ///
    /// ```swift
    /// let configuration = try PusherServerConfiguration(url: "https://278d425bdf160c739803:SECRET@api-eu.pusher.com/apps/1234")
    /// ```
    ///
    /// The key and secret may be percent-encoded. The port defaults to 443 for `https` and 80 for
    /// `http`; timeout, master key and limits take their defaults (set them afterwards).
    ///
    /// - Parameter url: The URL.
    /// - Throws: ``PusherServerError`` `invalidConfiguration` when the URL does not have this form.
    ///   The message never repeats the URL, which holds the secret.
    public init(url: String) throws(PusherServerError) {
        func invalid(_ reason: String) -> PusherServerError {
            PusherServerError(
                .invalidConfiguration, "the URL must be http(s)://KEY:SECRET@HOST[:PORT]/apps/ID: \(reason)")
        }
        var rest = Substring(url)
        let useTLS: Bool
        if rest.lowercased().hasPrefix("https://") {
            useTLS = true
            rest = rest.dropFirst(8)
        } else if rest.lowercased().hasPrefix("http://") {
            useTLS = false
            rest = rest.dropFirst(7)
        } else {
            throw invalid("the scheme is not http or https")
        }
        guard !rest.contains("?"), !rest.contains("#") else { throw invalid("it has a query or a fragment") }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = rest[slash...]
        guard let at = authority.lastIndex(of: "@") else { throw invalid("it has no KEY:SECRET@") }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { throw invalid("it has no ':' between key and secret") }
        guard let key = PercentEncoding.decodeUTF8(userInfo[..<colon]),
            let secret = PercentEncoding.decodeUTF8(userInfo[userInfo.index(after: colon)...])
        else { throw invalid("the key or secret has an invalid percent-encoding") }
        let (host, port) = try Self.hostAndPort(authority[authority.index(after: at)...], invalid: invalid)
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if segments.last == "" { segments = segments.dropLast() }
        guard segments.count == 2, segments.first == "apps", let appID = segments.last, !appID.isEmpty else {
            throw invalid("the path is not /apps/ID")
        }
        try self.init(appID: String(appID), key: key, secret: secret, host: host, port: port, useTLS: useTLS)
    }

    private static func hostAndPort(
        _ text: Substring, invalid: (String) -> PusherServerError
    ) throws(PusherServerError) -> (String, Int?) {
        var host = text
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid("an IPv6 host has no ']'") }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 host") }
                portText = after.dropFirst()
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw invalid("the host is empty") }
        guard let portText else { return (String(host), nil) }
        guard let port = Int(portText) else { throw invalid("the port is not a number") }
        return (String(host), port)
    }
}
