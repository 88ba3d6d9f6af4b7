// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import PusherChannelsTesting
import Testing

@testable import PusherChannels

// Loopback: the auth endpoints' requests through proxies on real sockets.
@Suite("Proxies: the auth endpoints through the client's proxy", .timeLimit(.minutes(1)))
struct ProxyAuthEndpointTests {
    @Test("a private channel through an HTTP proxy with credentials: the auth request goes through it too")
    func privateChannelThroughHTTPProxy() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
                var options = server.clientOptions()
                options.backoff.jitter = 0
                options.proxy = .proxy(try PusherProxy(url: proxy.url(credentials: "alice:pw")))
                options.authorizer = .endpoint(server.authEndpoint)
                let client = PusherClient(key: server.appKey, options: options, clock: VirtualClock())
                try await withRunningClient(client) { client in
                    async let events = collect(client.events(on: "private-orders"), count: 1)
                    await server.waitForSubscribers(of: "private-orders")
                    await server.trigger(channel: "private-orders", event: "created", data: #"{"id":7}"#)
                    let received = try await events.map(\.data)
                    #expect(received == [#"{"id":7}"#])
                }
                // The WebSocket's CONNECT and the auth request's: AsyncHTTPClient tunnels plain
                // http:// through CONNECT as well (no absolute-URI requests).
                #expect(proxy.snapshot.targets == ["127.0.0.1:\(server.port)", "127.0.0.1:\(server.port)"])
                #expect(await server.snapshot.authRequests.count == 1)
                let expected = "Basic " + Data("alice:pw".utf8).base64EncodedString()
                #expect(!proxy.snapshot.credentials.isEmpty && proxy.snapshot.credentials.allSatisfy { $0 == expected })
            }
        }
    }

    @Test("NO_PROXY exempts the auth endpoint's host from an environment proxy")
    func environmentExemption() async throws {
        let cache = ProxyClientCache(limit: 8)
        let settings = AuthEndpointSettings(proxy: .environment)
        let request = HTTPClientRequest(url: "http://127.0.0.1:8080/pusher/auth")
        let exempt = try AuthEndpointClient.client(
            for: request, settings: settings, code: .authorizationFailed, endpoint: "the auth endpoint",
            environment: ["HTTPS_PROXY": "http://127.0.0.1:3128", "NO_PROXY": "127.0.0.1"], cache: cache)
        #expect(exempt.client === AuthEndpointClient.sharedClient, "exempt: the shared client, no proxy")
        let proxied = try AuthEndpointClient.client(
            for: request, settings: settings, code: .authorizationFailed, endpoint: "the auth endpoint",
            environment: ["HTTPS_PROXY": "http://127.0.0.1:3128"], cache: cache)
        #expect(proxied.client !== AuthEndpointClient.sharedClient)
        try await cache.shutdown()
    }

    @Test("one cached client per proxy, not one per request; past the limit, a client of the request's own")
    func cachedClientPerProxy() async throws {
        let cache = ProxyClientCache(limit: 1)
        func client(_ url: String, port: Int) throws -> (client: HTTPClient, isOwn: Bool) {
            let proxy = PusherProxy(.httpConnect, host: "127.0.0.1", port: port)
            return try AuthEndpointClient.client(
                for: HTTPClientRequest(url: url), settings: AuthEndpointSettings(proxy: .proxy(proxy)),
                code: .authorizationFailed, endpoint: "e", cache: cache)
        }
        let first = try client("http://auth.example/a", port: 9)
        let second = try client("https://auth.example/b", port: 9)
        #expect(first.client === second.client)
        #expect(!first.isOwn && !second.isOwn)
        let other = try client("http://auth.example/a", port: 10)
        #expect(other.isOwn, "a second proxy is past the limit of 1")
        #expect(other.client !== first.client)
        try await other.client.shutdown()
        try await cache.shutdown()
    }

    @Test("an auth endpoint through a SOCKS5 proxy with credentials fails, saying AsyncHTTPClient cannot")
    func socksWithCredentials() async throws {
        let settings = AuthEndpointSettings(
            proxy: .proxy(PusherProxy(.socks5, host: "127.0.0.1", port: 9, username: "u", password: "sock-secret")))
        let authorizer = ChannelAuthorizer.endpoint(URL(string: "http://auth.example/pusher/auth")!)  // a valid literal
        await #expect {
            _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
        } throws: { error in
            let error = error as? PusherError
            return error?.code == .authorizationFailed
                && error?.message.contains("SOCKS5 without authentication") == true
                && error?.description.contains("sock-secret") == false
        }
    }

    @Test("a 407 from the proxy fails the authorization without showing the password")
    func proxyRefusesAuthRequest() async throws {
        try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
            let settings = AuthEndpointSettings(
                proxy: .proxy(try PusherProxy(url: proxy.url(credentials: "alice:bad-secret"))))
            let authorizer = ChannelAuthorizer.endpoint(URL(string: "http://auth.example/pusher/auth")!)  // valid
            await #expect {
                _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .authorizationFailed && error?.description.contains("bad-secret") == false
            }
            #expect(proxy.snapshot.targets == ["auth.example:80"])
        }
    }
}
