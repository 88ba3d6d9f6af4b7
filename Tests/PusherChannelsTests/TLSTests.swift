// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// Loopback: TLS on a real socket is the subject.
@Suite("TLS: wss:// end to end over loopback", .timeLimit(.minutes(1)))
struct TLSTests {
    /// Runs `body` with a fake server speaking TLS with `certificate` and a client connecting to
    /// `host` on a virtual clock (no jitter), trusting the test CA when `trustingTestCA`.
    func withTLS(
        certificate: TestCertificates.Server = .localhost,
        host: String,
        trustingTestCA: Bool,
        _ body: (FakePusherServer, PusherClient, VirtualClock) async throws -> Void
    ) async throws {
        try await FakePusherServer.withRunning(configuration: .init(tls: certificate)) { server in
            var options = PusherClientConfiguration(host: host, port: server.port)
            options.backoff.jitter = 0
            if trustingTestCA {
                try options.trustCertificateAuthorities(pem: TestCertificates.certificateAuthorityPEM)
            }
            let clock = VirtualClock()
            let client = PusherClient(key: server.appKey, configuration: options, clock: clock)
            try await withRunningClient(client) { client in
                try await body(server, client, clock)
            }
        }
    }

    /// Waits until the client connected (failing at once if it fails instead), subscribes to a
    /// channel, has the server trigger an event on it, returns what arrived.
    func roundTrip(_ server: FakePusherServer, _ client: PusherClient) async throws -> [String] {
        var states = client.connectionStates.makeAsyncIterator()
        let state = await states.collect { $0.isConnected || $0.isReconnecting }.last
        try #require(state?.isConnected == true, "\(String(describing: state))")
        async let events = collect(client.events(on: "prices"), count: 1)
        await server.waitForSubscribers(of: "prices")
        await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
        return try await events.map(\.data)
    }

    /// The first error, and that the client reports it again on the retry after the backoff
    /// (1 s), with no WebSocket ever opened on the server.
    func refusedTwice(_ server: FakePusherServer, _ client: PusherClient, _ clock: VirtualClock) async throws
        -> PusherError
    {
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
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        let second = await errors.next()
        #expect(second == first, "each failed attempt is reported")
        #expect(await !client.state.isConnected)
        #expect(await server.snapshot.connections.isEmpty, "no WebSocket was opened")
        return first
    }

    /// What a readable TLS error looks like: none of BoringSSL's error stack.
    func expectReadable(_ error: PusherError, host: String, reason: String) {
        #expect(error.code == .tlsFailed)
        #expect(error.message.hasPrefix("TLS handshake with \(host) failed: "))
        #expect(error.message.contains(reason), "\(error.message)")
        #expect(!error.description.contains("OPENSSL"))
        #expect(!error.description.contains("error:"))
        #expect(!error.description.contains("NIOSSL"))
    }

    @Test("a certificate from a private CA the options trust: wss://localhost connects and events flow")
    func trustedPrivateCA() async throws {
        try await self.withTLS(host: "localhost", trustingTestCA: true) { server, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
        }
    }

    @Test("wss:// to an IP address: no SNI, the certificate is checked against the address; events flow")
    func ipAddressHost() async throws {
        try await self.withTLS(host: "127.0.0.1", trustingTestCA: true) { server, client, _ in
            let received = try await self.roundTrip(server, client)
            #expect(received == [#"{"price":1}"#])
        }
    }

    @Test("trusting only the CA from a PEM file (not the system's trust store) connects")
    func trustedFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pusher-test-ca-\(UUID().uuidString).pem")
        try TestCertificates.certificateAuthorityPEM.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await FakePusherServer.withRunning(configuration: .init(tls: .localhost)) { server in
            var options = PusherClientConfiguration(host: "localhost", port: server.port)
            try options.trustCertificateAuthorities(pemFile: file.path, keepingSystemTrustStore: false)
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                let received = try await self.roundTrip(server, client)
                #expect(received == [#"{"price":1}"#])
            }
        }
    }

    @Test("the fake server's own client options connect over wss:// in its TLS mode")
    func fakeServerOptions() async throws {
        try await FakePusherServer.withRunning(configuration: .init(tls: .localhost)) { server in
            #expect(server.authEndpoint.scheme == "https")
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(client) { client in
                let received = try await self.roundTrip(server, client)
                #expect(received == [#"{"price":1}"#])
            }
        }
    }

    @Test("without the private CA the certificate is refused: tlsFailed naming the host, retried with backoff")
    func untrusted() async throws {
        try await self.withTLS(host: "localhost", trustingTestCA: false) { server, client, clock in
            let error = try await self.refusedTwice(server, client, clock)
            self.expectReadable(error, host: "localhost", reason: "the server's certificate is not trusted")
        }
    }

    @Test("a certificate for another host: tlsFailed, hostname mismatch", arguments: ["localhost", "127.0.0.1"])
    func hostnameMismatch(host: String) async throws {
        try await self.withTLS(certificate: .wrongHost, host: host, trustingTestCA: true) { server, client, clock in
            let error = try await self.refusedTwice(server, client, clock)
            self.expectReadable(error, host: host, reason: "not valid for \(host) (hostname mismatch)")
        }
    }

    @Test("an expired certificate: tlsFailed saying when it expired")
    func expired() async throws {
        try await self.withTLS(certificate: .expired, host: "localhost", trustingTestCA: true) {
            server, client, clock in
            let error = try await self.refusedTwice(server, client, clock)
            self.expectReadable(error, host: "localhost", reason: "the server's certificate expired on 2001-01-01")
        }
    }

    @Test("wss:// to a server that does not speak TLS: tlsFailed, not a BoringSSL dump")
    func plainServer() async throws {
        try await FakePusherServer.withRunning { server in
            var options = PusherClientConfiguration(host: "127.0.0.1", port: server.port)
            options.backoff.jitter = 0
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                var errors = client.errors.makeAsyncIterator()
                let error = try #require(await errors.next())
                self.expectReadable(
                    error, host: "127.0.0.1",
                    reason: "handshake failure (wrong version number; does the server speak TLS on this port?)")
            }
        }
    }

    @Test("a CA file that is missing or holds no certificate is a configuration error")
    func badCertificateAuthority() throws {
        var options = PusherClientConfiguration(host: "localhost")
        #expect(throws: PusherError.self) { try options.trustCertificateAuthorities(pemFile: "/nonexistent/ca.pem") }
        #expect(throws: PusherError.self) { try options.trustCertificateAuthorities(pem: "not a certificate") }
        #expect(throws: PusherError.self) {
            try options.trustCertificateAuthorities(pem: TestCertificates.Server.localhost.privateKeyPEM)
        }
        do {
            try options.trustCertificateAuthorities(pem: "nothing here")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
        #expect(options.tlsConfiguration == nil, "a failed call changes nothing")
    }
}
