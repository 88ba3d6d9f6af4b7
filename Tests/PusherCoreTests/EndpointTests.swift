// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Connection URL")
struct EndpointTests {
    @Test("cluster over TLS: wss, port 443, protocol 7, client and version")
    func cluster() throws {
        let url = try PusherEndpoint.cluster("eu").url(key: "abc123", client: "swift-pusher-channels", version: "1.0.0")
        #expect(url == "wss://ws-eu.pusher.com:443/app/abc123?protocol=7&client=swift-pusher-channels&version=1.0.0")
    }

    @Test("plain host: ws and port 80; custom port and path prefix")
    func custom() throws {
        #expect(try PusherEndpoint(host: "localhost", useTLS: false).url(key: "k", client: "c", version: "v")
            == "ws://localhost:80/app/k?protocol=7&client=c&version=v")
        #expect(try PusherEndpoint(host: "example.org", port: 6001, useTLS: true, path: "ws/").url(key: "k", client: "c", version: "1 b")
            == "wss://example.org:6001/ws/app/k?protocol=7&client=c&version=1%20b")
        #expect(try PusherEndpoint(host: "::1", port: 8080, useTLS: false).url(key: "k", client: "c", version: "v")
            == "ws://[::1]:8080/app/k?protocol=7&client=c&version=v")
    }

    @Test("bad host, key or port is a configuration error")
    func invalid() {
        for endpoint in [PusherEndpoint(host: ""), PusherEndpoint(host: "a/b"), PusherEndpoint(host: "h", port: 70000)] {
            #expect(throws: PusherError.self) { try endpoint.url(key: "k", client: "c", version: "v") }
        }
        #expect(throws: PusherError.self) { try PusherEndpoint(host: "h").url(key: "a b", client: "c", version: "v") }
    }
}
