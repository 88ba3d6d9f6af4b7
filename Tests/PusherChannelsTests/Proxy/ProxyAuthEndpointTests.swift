// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PusherChannelsTesting
import PusherTestSupport
import Testing

@testable import PusherChannels

// Loopback: the auth endpoints' requests through proxies on real sockets.
@Suite("Proxies: the auth endpoints through the client's proxy", .timeLimit(.minutes(1)))
struct ProxyAuthEndpointTests {
    /// Subscribes to a private channel on `server` through `proxyURL` with `authorizer`, and
    /// returns the event the server triggered there.
    func privateRoundTrip(
        _ server: FakePusherServer, host: String? = nil, proxyURL: String, authorizer: ChannelAuthorizer
    ) async throws -> [String] {
        var options = server.clientConfiguration()
        if let host { options.endpoint.host = host }
        options.backoff.jitter = 0
        options.proxy = .proxy(try PusherProxy(url: proxyURL))
        options.authorizer = authorizer
        let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
        return try await withRunningClient(client) { client in
            async let events = collect(client.events(on: "private-orders"), count: 1)
            await server.waitForSubscribers(of: "private-orders")
            await server.trigger(channel: "private-orders", event: "created", data: #"{"id":7}"#)
            return try await events.map(\.data)
        }
    }

    @Test("an http:// auth endpoint through an HTTP proxy: an absolute-URI request with the proxy's credentials")
    func httpEndpointAsAbsoluteURI() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
                let received = try await self.privateRoundTrip(
                    server, proxyURL: proxy.url(credentials: "alice:pw"), authorizer: .endpoint(server.authEndpoint))
                #expect(received == [#"{"id":7}"#])
                // The WebSocket's CONNECT, then the auth request in absolute form.
                #expect(
                    proxy.snapshot.targets == [
                        "127.0.0.1:\(server.port)", "POST http://127.0.0.1:\(server.port)/pusher/auth HTTP/1.1",
                    ])
                let requests = await server.snapshot.authRequests
                #expect(requests.map { $0.fields["channel_name"] } == ["private-orders"])
                let expected = "Basic " + Data("alice:pw".utf8).base64EncodedString()
                #expect(proxy.snapshot.credentials == [expected, expected])
            }
        }
    }

    @Test("an https:// auth endpoint through an HTTP proxy: a CONNECT tunnel, TLS verified inside it")
    func httpsEndpointThroughCONNECT() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret", tls: .localhost)) {
            server in
            try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
                #expect(server.authEndpoint.scheme == "https")
                // By name: through a tunnel, TLS to an IP address cannot be verified (it is refused).
                let endpoint = try #require(URL(string: "https://localhost:\(server.port)/pusher/auth"))
                let received = try await self.privateRoundTrip(
                    server, host: "localhost", proxyURL: proxy.url(credentials: "alice:pw"),
                    authorizer: .endpoint(endpoint))
                #expect(received == [#"{"id":7}"#])
                #expect(proxy.snapshot.targets == ["localhost:\(server.port)", "localhost:\(server.port)"])
                #expect(proxy.snapshot.tunnels == 2)
                #expect(await server.snapshot.authRequests.count == 1)
            }
        }
    }

    @Test("an auth endpoint through a SOCKS5 proxy with credentials: the proxy resolves the endpoint's name")
    func socksWithCredentials() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.socks5(credentials: ("bob", "hunter2"))) { proxy in
                let endpoint = URL(string: "http://localhost:\(server.port)/pusher/auth")!  // a valid literal
                let received = try await self.privateRoundTrip(
                    server, proxyURL: proxy.url(credentials: "bob:hunter2"), authorizer: .endpoint(endpoint))
                #expect(received == [#"{"id":7}"#])
                #expect(proxy.snapshot.targets == ["127.0.0.1:\(server.port)", "localhost:\(server.port)"])
                #expect(proxy.snapshot.addressTypes == [1, 3], "the auth endpoint's host goes to the proxy as a name")
                #expect(proxy.snapshot.credentials == ["bob:hunter2", "bob:hunter2"])
            }
        }
    }

    @Test("a request you build goes through a SOCKS5 proxy with credentials too")
    func requestBuilderThroughSOCKS() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.socks5(credentials: ("bob", "hunter2"))) { proxy in
                let url = server.authEndpoint.absoluteString
                let authorizer = ChannelAuthorizer.requestBuilder { socketID, channel in
                    var request = HTTPClientRequest(url: url)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                    request.body = .bytes(ByteBuffer(string: "socket_id=\(socketID)&channel_name=\(channel)"))
                    return request
                }
                let settings = AuthEndpointSettings(
                    proxy: .proxy(try PusherProxy(url: proxy.url(credentials: "bob:hunter2"))))
                let authorization = try await authorizer.authorize("123.456", "private-chat", settings: settings)
                #expect(!authorization.auth.isEmpty)
                #expect(proxy.snapshot.targets == ["127.0.0.1:\(server.port)"])
                #expect(await server.snapshot.authRequests.map { $0.fields["socket_id"] } == ["123.456"])
            }
        }
    }

    @Test("NO_PROXY exempts the auth endpoint's host from an environment proxy")
    func environmentExemption() throws {
        let settings = AuthEndpointSettings(proxy: .environment)
        let request = HTTPClientRequest(url: "http://127.0.0.1:8080/pusher/auth")
        let exempt = try AuthEndpointClient.proxy(
            for: request, settings: settings, code: .authorizationFailed, endpoint: "the auth endpoint",
            environment: ["HTTPS_PROXY": "http://127.0.0.1:3128", "NO_PROXY": "127.0.0.1"])
        #expect(exempt == nil)
        let proxied = try AuthEndpointClient.proxy(
            for: request, settings: settings, code: .authorizationFailed, endpoint: "the auth endpoint",
            environment: ["HTTPS_PROXY": "http://127.0.0.1:3128"])
        #expect(proxied?.proxy == PusherProxy(.httpConnect, host: "127.0.0.1", port: 3128))
        #expect(proxied?.url.absoluteForm == "http://127.0.0.1:8080/pusher/auth")
    }

    /// The error `authorize` throws through the proxy `proxyURL` to `endpoint`.
    func refusal(_ endpoint: String, proxyURL: String) async throws -> PusherError {
        let settings = AuthEndpointSettings(proxy: .proxy(try PusherProxy(url: proxyURL)))
        let authorizer = ChannelAuthorizer.endpoint(URL(string: endpoint)!)  // valid literals
        let error = await #expect(throws: PusherError.self) {
            _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
        }
        return try #require(error)
    }

    @Test("a 407 to an absolute-URI request names the proxy and its answer, never its credentials")
    func proxyRefusesHTTPRequest() async throws {
        try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
            let error = try await self.refusal(
                "http://auth.example/pusher/auth", proxyURL: proxy.url(credentials: "alice:bad-secret"))
            #expect(error.code == .authorizationFailed)
            #expect(error.message.contains("HTTP proxy 127.0.0.1:\(proxy.port) refused"), "\(error.message)")
            #expect(error.message.contains("HTTP 407 Proxy Authentication Required"), "\(error.message)")
            #expect((error.cause as? PusherError)?.code == .proxyFailed)
            #expect(!"\(error)".contains("bad-secret") && !"\(error)".contains("alice"))
            #expect(proxy.snapshot.targets == ["POST http://auth.example/pusher/auth HTTP/1.1"])
        }
    }

    @Test("a 401 to the CONNECT of an https:// endpoint names the proxy and its answer")
    func proxyRefusesTunnel() async throws {
        try await TestProxy.withRunning(.http(refusal: 401)) { proxy in
            let error = try await self.refusal(
                "https://auth.example/pusher/auth", proxyURL: proxy.url(credentials: "alice:tunnel-secret"))
            #expect(error.code == .authorizationFailed)
            #expect(error.message.contains("HTTP proxy 127.0.0.1:\(proxy.port) refused"), "\(error.message)")
            #expect(error.message.contains("HTTP 401"), "\(error.message)")
            #expect((error.cause as? PusherError)?.code == .proxyFailed)
            #expect(!"\(error)".contains("tunnel-secret"))
            #expect(proxy.snapshot.targets == ["auth.example:443"])
        }
    }

    @Test("a SOCKS5 proxy's failure reply names the proxy and the reply")
    func socksRefuses() async throws {
        try await TestProxy.withRunning(.socks5(reply: 0x02)) { proxy in
            let error = try await self.refusal("http://auth.example:8080/pusher/auth", proxyURL: proxy.url())
            #expect(error.code == .authorizationFailed)
            #expect(error.message.contains("SOCKS5 proxy 127.0.0.1:\(proxy.port)"), "\(error.message)")
            #expect(error.message.contains("reply 0x02"), "\(error.message)")
            #expect(proxy.snapshot.targets == ["auth.example:8080"])
        }
    }

    @Test("a user-auth call refused by the proxy fails the sign-in, naming the proxy")
    func signInRefused() async throws {
        try await TestProxy.withRunning(.http(refusal: 407)) { proxy in
            let settings = AuthEndpointSettings(proxy: .proxy(try PusherProxy(url: proxy.url())))
            let authenticator = UserAuthenticator.endpoint(URL(string: "http://auth.example/pusher/user-auth")!)
            let error = await #expect(throws: PusherError.self) {
                _ = try await authenticator.authenticate("1.1", settings: settings)
            }
            #expect(error?.code == .signInFailed)
            #expect(error?.message.contains("HTTP proxy 127.0.0.1:\(proxy.port) refused") == true)
        }
    }

    @Test("a request URL that cannot be read fails instead of going direct past the proxy")
    func unreadableURL() async throws {
        try await TestProxy.withRunning(.http()) { proxy in
            let settings = AuthEndpointSettings(proxy: .proxy(try PusherProxy(url: proxy.url())))
            let authorizer = ChannelAuthorizer.requestBuilder { _, _ in HTTPClientRequest(url: "auth endpoint") }
            let error = await #expect(throws: PusherError.self) {
                _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
            }
            #expect(error?.code == .authorizationFailed)
            #expect(error?.message.contains("cannot be read") == true, "\(String(describing: error))")
            #expect(proxy.snapshot.connections == 0)
        }
    }

    @Test(
        "through a proxy, an https:// endpoint at an IP address (unverifiable) and a host over 253 bytes fail without a connection"
    )
    func unverifiableOrOverlongHost() async throws {
        try await TestProxy.withRunning(.http()) { proxy in
            let settings = AuthEndpointSettings(proxy: .proxy(try PusherProxy(url: proxy.url())))
            let cases = [
                ("https://127.0.0.1:9/auth", "cannot be verified through"),
                ("http://\(String(repeating: "a", count: 300)).example/auth", "cannot be read"),
            ]
            for (url, reason) in cases {
                let authorizer = ChannelAuthorizer.requestBuilder { _, _ in HTTPClientRequest(url: url) }
                let error = await #expect(throws: PusherError.self) {
                    _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
                }
                #expect(error?.code == .authorizationFailed)
                #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
            }
            #expect(proxy.snapshot.connections == 0)
        }
    }

    @Test("an httpClient of your own is used as it is: the client's proxy sees no connection")
    func ownHTTPClientBypassesProxy() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.http()) { proxy in
                let own = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
                let settings = AuthEndpointSettings(proxy: .proxy(try PusherProxy(url: proxy.url())))
                let authorizer = ChannelAuthorizer.endpoint(server.authEndpoint, httpClient: own)
                let authorization: ChannelAuthorization
                do {
                    authorization = try await authorizer.authorize("123.456", "private-chat", settings: settings)
                } catch {
                    try await own.shutdown()
                    throw error
                }
                try await own.shutdown()
                #expect(!authorization.auth.isEmpty)
                #expect(await server.snapshot.authRequests.count == 1)
                #expect(proxy.snapshot.connections == 0)
            }
        }
    }

    @Test("an answer over 64 KiB through a proxy fails the authorization")
    func answerTooLarge() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
            try await TestProxy.withRunning(.http()) { proxy in
                await server.setAuthEndpoint(.respond(status: 200, body: String(repeating: "x", count: 70_000)))
                let error = try await self.refusal(server.authEndpoint.absoluteString, proxyURL: proxy.url())
                #expect(error.code == .authorizationFailed)
                #expect(error.message.contains("larger than 64 KiB"), "\(error.message)")
            }
        }
    }

    @Test("cancelling an auth call through a proxy that never answers closes its connection")
    func cancellationClosesConnection() async throws {
        let silent = try await SilentServer.start()
        let settings = AuthEndpointSettings(
            proxy: .proxy(PusherProxy(.httpConnect, host: "127.0.0.1", port: silent.port)))
        let authorizer = ChannelAuthorizer.endpoint(URL(string: "http://auth.example/pusher/auth")!)  // valid
        await withTaskGroup(of: (any Error)?.self) { group in
            group.addTask {
                do {
                    _ = try await authorizer.authorize("1.1", "private-chat", settings: settings)
                    return nil
                } catch {
                    return error
                }
            }
            let started = await silent.connections.wait(within: .seconds(10)) {
                $0.count == 1 && !$0[0].firstBytes.isEmpty
            }
            #expect(started)
            group.cancelAll()
            let error = await group.next() ?? nil
            #expect(error is CancellationError, "\(String(describing: error))")
        }
        #expect(await silent.connections.wait(within: .seconds(10)) { $0.allSatisfy(\.isClosed) })
        await silent.stop()
    }
}
