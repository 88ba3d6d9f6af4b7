// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Connection URL")
struct PusherEndpointTests {
    @Test("cluster over TLS: wss, port 443, protocol 7, client and version")
    func cluster() throws {
        let url = try PusherEndpoint.cluster("eu").url(key: "abc123", client: "swift-pusher-channels", version: "1.0.0")
        #expect(url == "wss://ws-eu.pusher.com:443/app/abc123?protocol=7&client=swift-pusher-channels&version=1.0.0")
        #expect(PusherEndpoint.protocolVersion == 7)
        #expect(
            PusherEndpoint.cluster("us2", useTLS: false) == PusherEndpoint(host: "ws-us2.pusher.com", useTLS: false))
    }

    @Test(
        "host, port, TLS and path prefix make the URL",
        arguments: [
            (PusherEndpoint(host: "localhost", useTLS: false), "ws://localhost:80/app/k?protocol=7&client=c&version=v"),
            (
                PusherEndpoint(host: "example.org", port: 6001),
                "wss://example.org:6001/app/k?protocol=7&client=c&version=v"
            ),
            (PusherEndpoint(host: "h", port: 1, useTLS: false), "ws://h:1/app/k?protocol=7&client=c&version=v"),
            (PusherEndpoint(host: "h", port: 65535), "wss://h:65535/app/k?protocol=7&client=c&version=v"),
            (PusherEndpoint(host: "h", path: "ws"), "wss://h:443/ws/app/k?protocol=7&client=c&version=v"),
            (PusherEndpoint(host: "h", path: "/ws/"), "wss://h:443/ws/app/k?protocol=7&client=c&version=v"),
            (PusherEndpoint(host: "h", path: "a/b//"), "wss://h:443/a/b/app/k?protocol=7&client=c&version=v"),
            (PusherEndpoint(host: "h", path: "/"), "wss://h:443/app/k?protocol=7&client=c&version=v"),
            (
                PusherEndpoint(host: "::1", port: 8080, useTLS: false),
                "ws://[::1]:8080/app/k?protocol=7&client=c&version=v"
            ),
            (PusherEndpoint(host: "[::1]", useTLS: false), "ws://[::1]:80/app/k?protocol=7&client=c&version=v"),
        ]
    )
    func urls(endpoint: PusherEndpoint, url: String) throws {
        #expect(try endpoint.url(key: "k", client: "c", version: "v") == url)
    }

    @Test("client and version are percent-encoded; the key must not need it")
    func encoding() throws {
        #expect(
            try PusherEndpoint(host: "h").url(key: "a-b_c.d~e", client: "my client", version: "1 b/é")
                == "wss://h:443/app/a-b_c.d~e?protocol=7&client=my%20client&version=1%20b%2F%C3%A9")
    }

    @Test(
        "a bad host, key or port is a configuration error",
        arguments: [
            (PusherEndpoint(host: ""), "k"), (PusherEndpoint(host: "a/b"), "k"), (PusherEndpoint(host: "a b"), "k"),
            (PusherEndpoint(host: "h", port: 0), "k"), (PusherEndpoint(host: "h", port: 70000), "k"),
            (PusherEndpoint(host: "h"), ""), (PusherEndpoint(host: "h"), "a b"), (PusherEndpoint(host: "h"), "k/../x"),
            (PusherEndpoint(host: "h"), "k?x=1"),
            (PusherEndpoint.cluster("x@evil.com#"), "k"), (PusherEndpoint.cluster("eu.evil.com"), "k"),
            (PusherEndpoint.cluster(""), "k"),
            (PusherEndpoint(host: "user@host"), "k"), (PusherEndpoint(host: "a..b"), "k"),
            (PusherEndpoint(host: "-a.b"), "k"),
            (PusherEndpoint(host: "h#x"), "k"), (PusherEndpoint(host: "h?x"), "k"),
            (PusherEndpoint(host: String(repeating: "a", count: 64)), "k"),
            (PusherEndpoint(host: "[::1"), "k"), (PusherEndpoint(host: "::g"), "k"),
            (PusherEndpoint(host: "h", path: "a?b"), "k"),
            (PusherEndpoint(host: "h", path: "a b"), "k"), (PusherEndpoint(host: "h", path: "../#"), "k"),
        ]
    )
    func invalid(endpoint: PusherEndpoint, key: String) {
        // Named a configuration error before any connection is tried (the client never retries it).
        #expect {
            try endpoint.url(key: key, client: "c", version: "v")
        } throws: { error in
            (error as? PusherError)?.code == .invalidConfiguration
        }
    }

    @Test("a cluster must be one DNS label, and the error names it")
    func clusterLabel() {
        #expect(
            throws: PusherError(
                .invalidConfiguration, "invalid cluster 'x@evil.com#': expected one DNS label such as 'eu' or 'mt1'")
        ) {
            try PusherEndpoint.cluster("x@evil.com#").url(key: "k", client: "c", version: "v")
        }
        #expect((try? PusherEndpoint.cluster("us-east_1").url(key: "k", client: "c", version: "v")) != nil)
        #expect(
            (try? PusherEndpoint(host: "10.0.0.1", useTLS: false).url(key: "k", client: "c", version: "v"))
                == "ws://10.0.0.1:80/app/k?protocol=7&client=c&version=v")
    }
}
