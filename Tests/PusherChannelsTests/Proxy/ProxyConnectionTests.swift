// SPDX-License-Identifier: MIT

import Foundation
import Logging
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: proxies on real sockets are the subject.
@Suite("Proxies: the WebSocket through HTTP CONNECT and SOCKS5 proxies on loopback", .timeLimit(.minutes(1)))
struct ProxyConnectionTests {
    /// Runs `body` with a fake server (with TLS when `tls`), a proxy behaving as `behaviour`, and a
    /// running client on a virtual clock (no jitter) that connects to `host` through the proxy URL
    /// `proxyURL(proxy)`, logging into `records`, its options changed by `configure`.
    func withProxiedClient(
        _ behaviour: TestProxy.Behaviour,
        host: String = "localhost",
        tls: Bool = false,
        proxyURL: (TestProxy) -> String = { $0.url() },
        records: LogRecords = LogRecords(),
        configure: (inout PusherClientConfiguration) -> Void = { _ in },
        _ body: (FakePusherServer, TestProxy, PusherClient, VirtualClock) async throws -> Void
    ) async throws {
        try await FakePusherServer.withRunning(configuration: .init(tls: tls ? .localhost : nil)) { server in
            try await TestProxy.withRunning(behaviour) { proxy in
                var options = server.clientConfiguration()
                options.endpoint.host = host
                options.backoff.jitter = 0
                options.proxy = .proxy(try PusherProxy(url: proxyURL(proxy)))
                configure(&options)
                let clock = VirtualClock()
                var logger = Logger(label: "proxy-test", factory: { _ in records.handler })
                logger.logLevel = .trace
                let client = PusherClient(key: server.appKey, configuration: options, clock: clock, logger: logger)
                try await withRunningClient(client) { client in
                    try await body(server, proxy, client, clock)
                }
            }
        }
    }

    /// Waits until the client connected (failing at once if it fails instead), subscribes, has the
    /// server trigger an event, returns what arrived.
    func roundTrip(_ server: FakePusherServer, _ client: PusherClient) async throws -> [String] {
        var states = client.connectionStates.makeAsyncIterator()
        let state = await states.collect { $0.isConnected || $0.isReconnecting }.last
        try #require(state?.isConnected == true, "\(String(describing: state))")
        async let events = collect(client.events(on: "prices"), count: 1)
        await server.waitForSubscribers(of: "prices")
        await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
        return try await events.map(\.data)
    }

    /// The refusal as the client reports it, and that the client tries again after the backoff
    /// (1 s, virtual): the proxy sees a second connection, the same error is reported.
    func refusedTwice(_ proxy: TestProxy, _ client: PusherClient, _ clock: VirtualClock) async throws -> PusherError {
        var errors = client.errors.makeAsyncIterator()
        var states = client.connectionStates.makeAsyncIterator()
        let first = try #require(await errors.next())
        let reconnecting = await states.collect { $0.isReconnecting }.last
        guard case .reconnecting(1, let delay, let cause)? = reconnecting else {
            Issue.record("expected reconnecting, got \(String(describing: reconnecting))")
            return first
        }
        #expect(delay == .seconds(1))
        #expect(cause == first)
        #expect(proxy.snapshot.connections == 1)
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        let second = await errors.next()
        #expect(second == first, "each failed attempt is reported")
        #expect(proxy.snapshot.connections == 2, "the client tried again after the backoff")
        #expect(proxy.snapshot.tunnels == 0)
        return first
    }

    /// Fails when `secret` shows in the error, the client's state or the log.
    func expectNoLeak(_ secret: String, _ error: PusherError, _ client: PusherClient, _ records: LogRecords) async {
        #expect(!error.description.contains(secret))
        #expect(!String(reflecting: error).contains(secret))
        #expect(!"\(await client.state)".contains(secret))
        #expect(!records.all.isEmpty, "the client logged the failure")
        for record in records.all { #expect(!record.rendered.contains(secret), "\(record.rendered)") }
    }

    @Test("HTTP CONNECT without credentials: events flow; the proxy was asked for the server by name")
    func httpConnect() async throws {
        try await self.withProxiedClient(.http()) { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.targets == ["localhost:\(server.port)"])
            #expect(proxy.snapshot.credentials.isEmpty)
        }
    }

    @Test("HTTP CONNECT with Basic credentials, percent-decoded from the URL: events flow")
    func httpConnectWithCredentials() async throws {
        try await self.withProxiedClient(
            .http(credentials: ("alice", "p@ss:w/rd")), proxyURL: { $0.url(credentials: "alice:p%40ss%3Aw%2Frd") }
        ) { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.credentials == ["Basic " + Data("alice:p@ss:w/rd".utf8).base64EncodedString()])
        }
    }

    @Test("wss:// through HTTP CONNECT: TLS inside the tunnel, verified for the server's name")
    func httpConnectTLS() async throws {
        try await self.withProxiedClient(.http(), tls: true) { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.targets == ["localhost:\(server.port)"])
        }
    }

    @Test("a 407 is proxyFailed naming the status and the proxy, never the password; retried after the backoff")
    func http407() async throws {
        let records = LogRecords()
        try await self.withProxiedClient(
            .http(credentials: ("alice", "right")), proxyURL: { $0.url(credentials: "alice:wrong-secret") },
            records: records
        ) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("HTTP 407"), "\(error.message)")
            #expect(error.message.contains("127.0.0.1:\(proxy.port)"), "\(error.message)")
            await self.expectNoLeak("wrong-secret", error, client, records)
        }
    }

    @Test("a 502 answer to CONNECT is proxyFailed naming it")
    func http502() async throws {
        try await self.withProxiedClient(.http(refusal: 502)) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("HTTP 502"), "\(error.message)")
            // The answer in short: the proxy's own answer head (its headers) is not repeated.
            #expect(!error.description.contains("Content-Length"), "\(error.description)")
        }
    }

    @Test("SOCKS5 without authentication: events flow; the name is resolved by the proxy")
    func socks5() async throws {
        try await self.withProxiedClient(.socks5()) { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.targets == ["localhost:\(server.port)"])
            #expect(proxy.snapshot.addressTypes == [3], "a domain name, not an address resolved here")
        }
    }

    @Test("SOCKS5 to an IP address: sent as an IPv4 address")
    func socks5IPv4() async throws {
        try await self.withProxiedClient(.socks5(), host: "127.0.0.1") { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.targets == ["127.0.0.1:\(server.port)"])
            #expect(proxy.snapshot.addressTypes == [1])
        }
    }

    @Test("SOCKS5 with username and password (RFC 1929), over wss://: events flow")
    func socks5WithCredentials() async throws {
        try await self.withProxiedClient(
            .socks5(credentials: ("bob", "hunter2")), tls: true, proxyURL: { $0.url(credentials: "bob:hunter2") }
        ) { server, proxy, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
            #expect(proxy.snapshot.credentials == ["bob:hunter2"])
        }
    }

    @Test("SOCKS5 refusing the password is proxyFailed, never showing it; retried after the backoff")
    func socks5WrongPassword() async throws {
        let records = LogRecords()
        try await self.withProxiedClient(
            .socks5(credentials: ("bob", "hunter2")), proxyURL: { $0.url(credentials: "bob:not-hunter2") },
            records: records
        ) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("refused the username and password"), "\(error.message)")
            #expect(error.message.contains("SOCKS5 proxy 127.0.0.1:\(proxy.port)"), "\(error.message)")
            await self.expectNoLeak("not-hunter2", error, client, records)
        }
    }

    @Test("SOCKS5 asking for credentials the URL does not give is proxyFailed saying so")
    func socks5MissingCredentials() async throws {
        try await self.withProxiedClient(.socks5(credentials: ("bob", "hunter2"))) { _, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("asks for credentials"), "\(error.message)")
        }
    }

    @Test("a SOCKS5 failure reply is proxyFailed naming the reply")
    func socks5Refused() async throws {
        try await self.withProxiedClient(.socks5(reply: 0x05)) { server, proxy, client, clock in
            let error = try await self.refusedTwice(proxy, client, clock)
            #expect(error.code == .proxyFailed)
            #expect(error.message.contains("reply 0x05 (connection refused)"), "\(error.message)")
            #expect(error.message.contains("localhost:\(server.port)"), "\(error.message)")
        }
    }

    @Test("a proxy that cannot be reached is proxyFailed naming it")
    func unreachableProxy() async throws {
        // A port bound by no listener, held for the whole test: nothing answers there, and no
        // other test's server can take it meanwhile (a port that was free a moment ago could be).
        let refusing = try RefusingPort()
        let port = refusing.port
        try await FakePusherServer.withRunning { server in
            var options = server.clientConfiguration()
            options.proxy = .proxy(PusherProxy(.httpConnect, host: "127.0.0.1", port: port, password: "pw-123"))
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                var errors = client.errors.makeAsyncIterator()
                let error = try #require(await errors.next())
                #expect(error.code == .proxyFailed)
                #expect(error.message.contains("HTTP proxy 127.0.0.1:\(port) could not be reached"), "\(error.message)")
                #expect(!error.description.contains("pw-123"))
            }
        }
        withExtendedLifetime(refusing) {}
    }
}
