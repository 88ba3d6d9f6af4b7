// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `listen --header` and repeated `--host H[:P]`.
extension CLITests {
    @Test("--header lines reach the server on the upgrade request; a later one of the same name (any case) wins")
    func upgradeHeadersReachServer() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--header", "Authorization: Bearer first", "--header", "Origin: https://app.example",
                    "--header", "authorization:Bearer second", "--channel", "news",
                ])
            await server.waitForSubscribers(of: "news")
            let headers = try #require(await server.snapshot.connections.first?.requestHeaders)
            #expect(headers["authorization"] == "Bearer second")
            #expect(headers["origin"] == "https://app.example")
            cli.send(signal: SIGTERM)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }

    @Test(
        "a refused --header is a usage error (exit 2) before connecting; the value is not repeated",
        arguments: [
            ("Host: evil.example", "the client's own"), ("upgrade: h2c", "the client's own"),
            ("Connection: close", "the client's own"), ("Sec-WebSocket-Key: c2VjcmV0", "the client's own"),
            ("SEC-WEBSOCKET-PROTOCOL: chat", "the client's own"), ("no colon here", "takes 'Name: value'"),
            (": empty name", "the name is empty"), ("bad name: x", "not a valid HTTP header name"),
        ]
    )
    func refusedUpgradeHeader(line: String, reason: String) async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--header", line, "--channel", "news"])
            let status = await cli.exitStatus()
            #expect(status == 2, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("--header: "), "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains(reason), "stderr: \(cli.standardError)")
            #expect(!cli.standardError.contains("evil.example") && !cli.standardError.contains("c2VjcmV0"))
            #expect(await server.snapshot.connections.isEmpty)
        }
    }

    @Test(
        "a header name with a space (a mistyped 'Authorization: Bearer …') is refused without repeating what follows it",
        arguments: ["--header", "--auth-header"]
    )
    func mistypedHeaderNameNotRepeated(option: String) async throws {
        let cli = try CLIProcess([
            "listen", "--key", "k", "--no-tls", "--host", "127.0.0.1", "--port", "1", option,
            "Authorization Bearer tok-s3cret:x", "--channel", "news",
        ])
        #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
        #expect(
            cli.standardError.contains("not a valid HTTP header name: character 14 is a space after 'Authorization'"),
            "stderr: \(cli.standardError)")
        #expect(!cli.standardError.contains("Bearer") && !cli.standardError.contains("s3cret"))
    }

    @Test("--host H:P with a dead first endpoint and a live second one: the CLI moves on and receives events")
    func hostFailover() async throws {
        // A port that refuses connections.
        let refusing = try RefusingPort()
        let deadPort = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess([
                "listen", "--key", server.appKey, "--no-tls", "--host", "127.0.0.1:\(deadPort)", "--host",
                "127.0.0.1:\(server.port)", "--channel", "news", "--count", "1",
            ])
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "flash", data: "live")
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == [#"{"channel":"news","event":"flash","data":"live"}"#])
            // Each attempt names its endpoint on standard error.
            #expect(cli.standardError.contains("state: connecting(attempt: 0) to 127.0.0.1:\(deadPort)\n"))
            #expect(cli.standardError.contains("state: connecting(attempt: 1) to 127.0.0.1:\(server.port)\n"))
        }
    }

    @Test("--port is the default port of --host entries without one; H:P names its own")
    func hostPortForms() async throws {
        try await FakePusherServer.withRunning { server in
            // The first entry has no port: --port (the dead one) applies; the second names the live port.
            let refusing = try RefusingPort()
            let deadPort = refusing.port
            defer { withExtendedLifetime(refusing) {} }
            let cli = try CLIProcess([
                "listen", "--key", server.appKey, "--no-tls", "--port", "\(deadPort)", "--host", "127.0.0.1",
                "--host", "localhost:\(server.port)", "--channel", "news",
            ])
            await server.waitForSubscribers(of: "news")
            cli.send(signal: SIGTERM)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            // The first attempt went to --port (not 80), the second to the entry's own port.
            #expect(
                cli.standardError.contains("state: connecting(attempt: 0) to 127.0.0.1:\(deadPort)\n"),
                "stderr: \(cli.standardError)")
            #expect(
                cli.standardError.contains("state: connecting(attempt: 1) to localhost:\(server.port)\n"),
                "stderr: \(cli.standardError)")
        }
    }

    @Test("--host [::1]:P connects over IPv6 loopback", .enabled(if: CLITests.hasIPv6Loopback))
    func hostIPv6WithPort() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.bindAddress = "::1"
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let cli = try CLIProcess([
                "listen", "--key", server.appKey, "--no-tls", "--host", "[::1]:\(server.port)", "--channel", "news",
            ])
            await server.waitForSubscribers(of: "news")
            cli.send(signal: SIGTERM)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }

    /// Whether a socket can be bound on `::1` here (some containers have no IPv6).
    static let hasIPv6Loopback: Bool = {
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET6, type, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    @Test(
        "a --host that is not H, H:P or [IPv6]:P is a usage error (exit 2)",
        arguments: [
            ("127.0.0.1:", "the port must be 1–65535"), ("127.0.0.1:70000", "the port must be 1–65535"),
            ("127.0.0.1:x1", "the port must be 1–65535"), ("[::1", "is not HOST, HOST:PORT or [IPv6]:PORT"),
            ("[::1]6001", "is not HOST, HOST:PORT or [IPv6]:PORT"), ("[]:1", "is not HOST, HOST:PORT or [IPv6]:PORT"),
            (":6001", "is not HOST, HOST:PORT or [IPv6]:PORT"),
        ]
    )
    func invalidHostArgument(host: String, reason: String) async throws {
        let cli = try CLIProcess(["listen", "--key", "k", "--no-tls", "--host", host, "--channel", "news"])
        #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains("--host '\(host)'"), "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains(reason), "stderr: \(cli.standardError)")
    }
}
