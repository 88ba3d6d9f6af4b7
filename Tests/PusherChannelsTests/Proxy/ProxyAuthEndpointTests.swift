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
        try await TestProxy.withRunning(.http()) { proxy in
            try await FakePusherServer.withRunning { server in
                let settings = AuthEndpointSettings(proxy: .environment)
                let environment = ["HTTPS_PROXY": proxy.url(), "NO_PROXY": "127.0.0.1"]
                let (client, _) = try AuthEndpointClient.client(
                    for: .init(url: server.authEndpoint.absoluteString), settings: settings,
                    code: .authorizationFailed, endpoint: "the auth endpoint", environment: environment)
                #expect(client === AuthEndpointClient.sharedClient, "exempt: the shared client, no proxy")
                let (proxied, _) = try AuthEndpointClient.client(
                    for: .init(url: server.authEndpoint.absoluteString), settings: settings,
                    code: .authorizationFailed, endpoint: "the auth endpoint",
                    environment: ["HTTPS_PROXY": proxy.url()])
                #expect(proxied !== AuthEndpointClient.sharedClient)
            }
        }
    }

    @Test("one cached client per proxy, not one per request")
    func cachedClientPerProxy() throws {
        let settings = AuthEndpointSettings(proxy: .proxy(PusherProxy(.httpConnect, host: "127.0.0.1", port: 9)))
        let first = try AuthEndpointClient.client(
            for: .init(url: "http://auth.example/a"), settings: settings, code: .authorizationFailed, endpoint: "e")
        let second = try AuthEndpointClient.client(
            for: .init(url: "https://auth.example/b"), settings: settings, code: .authorizationFailed, endpoint: "e")
        #expect(first.client === second.client)
        #expect(!first.isOwn && !second.isOwn)
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
