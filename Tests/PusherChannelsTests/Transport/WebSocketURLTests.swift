// SPDX-License-Identifier: MIT

import PusherChannels
import Testing

@Suite("WebSocket URLs")
struct WebSocketURLTests {
    @Test(
        "scheme, host, port, request target and Host header",
        arguments: [
            (
                "wss://ws-eu.pusher.com/app/k?protocol=7", true, "ws-eu.pusher.com", 443, "/app/k?protocol=7",
                "ws-eu.pusher.com", false
            ),
            ("ws://127.0.0.1:6001/app/k", false, "127.0.0.1", 6001, "/app/k", "127.0.0.1:6001", true),
            ("wss://[::1]:8443?x=1", true, "::1", 8443, "/?x=1", "[::1]:8443", true),
            ("ws://example.org", false, "example.org", 80, "/", "example.org", false),
        ]
    )
    func parses(url: String, useTLS: Bool, host: String, port: Int, target: String, hostHeader: String, isIP: Bool)
        throws
    {
        let parsed = try WebSocketURL(parsing: url)
        #expect(parsed.useTLS == useTLS)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
        #expect(parsed.target == target)
        #expect(parsed.hostHeader == hostHeader)
        #expect(parsed.isIPAddress == isIP)
    }

    @Test(
        "not a WebSocket URL, no host, or a bad port is a configuration error",
        arguments: ["https://x/app", "ws:///app", "ws://h:0/", "ws://h:99999/", "ws://h:x/"])
    func refuses(url: String) {
        #expect(throws: PusherError.self) { try WebSocketURL(parsing: url) }
    }
}
