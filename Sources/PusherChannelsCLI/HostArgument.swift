// SPDX-License-Identifier: MIT

import PusherChannels

/// One `--host H[:P]` of `listen`: a host name, an IPv4 address or an IPv6 address, with a port or
/// not (`example.com`, `example.com:6001`, `127.0.0.1:6001`, `[::1]:6001`, `[::1]`, `::1`).
struct HostArgument: Sendable, Hashable {
    var host: String
    var port: Int?

    /// Parses `H[:P]`. A bare IPv6 address (more than one `:`, no brackets) has no port; a port is
    /// 1–65535. The host itself is checked later, with the other endpoint settings.
    static func parse(_ text: String) throws(CLIError) -> HostArgument {
        let invalid = CLIError("--host '\(TerminalText.escaped(text))' is not HOST, HOST:PORT or [IPv6]:PORT")
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard !host.isEmpty else { throw invalid }
            if rest.isEmpty { return HostArgument(host: host, port: nil) }
            guard rest.first == ":" else { throw invalid }
            return HostArgument(host: host, port: try Self.port(rest.dropFirst(), of: text))
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            let host = String(text[..<colon])
            guard !host.isEmpty else { throw invalid }
            return HostArgument(host: host, port: try Self.port(text[text.index(after: colon)...], of: text))
        }
        guard !text.isEmpty else { throw invalid }
        return HostArgument(host: text, port: nil)
    }

    /// `host:port` of `endpoint` as `--host` takes it (`[v6]:port` for an IPv6 address), for messages.
    /// Endpoint hosts are checked names or addresses: nothing to escape.
    static func describe(_ endpoint: PusherEndpoint) -> String {
        let host = endpoint.host.contains(":") && !endpoint.host.hasPrefix("[") ? "[\(endpoint.host)]" : endpoint.host
        return "\(host):\(endpoint.port ?? (endpoint.useTLS ? 443 : 80))"
    }

    private static func port(_ digits: Substring, of text: String) throws(CLIError) -> Int {
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let port = Int(digits),
            (1...65535).contains(port)
        else {
            throw CLIError("--host '\(TerminalText.escaped(text))': the port must be 1–65535")
        }
        return port
    }
}
