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

// `listen --proxy` and the proxy environment, with in-process proxies on loopback.
extension CLITests {
    /// No proxy variable of the test runner's own environment reaches the child.
    static let noProxyEnvironment = [
        "HTTPS_PROXY": "", "https_proxy": "", "ALL_PROXY": "", "all_proxy": "", "NO_PROXY": "", "no_proxy": "",
    ]

    /// Runs `listen … --count 1` with `extra` arguments and environment, triggers one event,
    /// expects it printed and exit 0.
    func listenOnce(_ server: FakePusherServer, _ extra: [String], environment: [String: String]) async throws {
        let cli = try CLIProcess(
            self.connectionArguments(server) + ["--channel", "news", "--count", "1"] + extra,
            environment: Self.noProxyEnvironment.merging(environment) { $1 })
        await server.waitForSubscribers(of: "news")
        await server.trigger(channel: "news", event: "headline", data: "proxied")
        #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        #expect(cli.standardOutputLines == [#"{"channel":"news","event":"headline","data":"proxied"}"#])
    }

    @Test("--proxy http:// with credentials: the WebSocket goes through CONNECT; events print")
    func proxyOption() async throws {
        try await FakePusherServer.withRunning { server in
            try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
                try await self.listenOnce(
                    server, ["--proxy", proxy.url(credentials: "alice:pw")], environment: [:])
                #expect(proxy.snapshot.targets == ["\(server.host):\(server.port)"])
            }
        }
    }

    @Test("without --proxy, ALL_PROXY (socks5://) is used; NO_PROXY exempts the host")
    func proxyEnvironment() async throws {
        try await FakePusherServer.withRunning { server in
            try await TestProxy.withRunning(.socks5()) { proxy in
                try await self.listenOnce(server, [], environment: ["ALL_PROXY": proxy.url()])
                #expect(proxy.snapshot.targets == ["\(server.host):\(server.port)"])
                try await self.listenOnce(
                    server, [], environment: ["ALL_PROXY": proxy.url(), "NO_PROXY": server.host])
                #expect(proxy.snapshot.connections == 1, "the exempt host was reached directly")
            }
        }
    }

    @Test("--proxy overrides the environment, and NO_PROXY does not apply to it")
    func proxyOptionIgnoresNoProxy() async throws {
        try await FakePusherServer.withRunning { server in
            try await TestProxy.withRunning(.http()) { proxy in
                try await self.listenOnce(
                    server, ["--proxy", proxy.url()],
                    environment: ["HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": "*"])
                #expect(proxy.snapshot.tunnels == 1)
            }
        }
    }

    @Test(
        "an unreadable --proxy (or environment proxy) is a usage error, exit 2, without its password",
        arguments: [
            (["--proxy", "ftp://cli-user-1:cli-pw-1@127.0.0.1:21"], [:], "--proxy: invalid proxy URL ftp://***@"),
            (["--proxy", "http://cli-user-1:cli-pw-1@127.0.0.1"], [:], "no port"),
            (["--proxy", "http://cli-user-1@127.0.0.1"], [:], "no port"),
            (["--proxy", "socks4://127.0.0.1:1080"], [:], "unknown scheme socks4://"),
            ([], ["HTTPS_PROXY": "https://cli-user-1:cli-pw-1@127.0.0.1:3128"], "HTTPS_PROXY: invalid proxy URL"),
            (
                [], ["HTTPS_PROXY": "https://cli-user-1:cli-pw-1@127.0.0.1:3128", "NO_PROXY": "other.example"],
                "HTTPS_PROXY: invalid proxy URL"
            ),
        ] as [([String], [String: String], String)])
    func invalidProxy(_ arguments: [String], _ environment: [String: String], _ message: String) async throws {
        let cli = try CLIProcess(
            ["listen", "--key", "k", "--host", "127.0.0.1", "--port", "9", "--no-tls", "--channel", "news"]
                + arguments,
            environment: Self.noProxyEnvironment.merging(environment) { $1 })
        #expect(await cli.exitStatus() == 2)
        #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
        #expect(!cli.standardError.contains("cli-pw-1"))
        #expect(!cli.standardError.contains("cli-user-1"))
    }

    @Test("an unreadable environment proxy is no usage error when NO_PROXY exempts every --host: events print")
    func invalidEnvironmentProxyExempt() async throws {
        try await FakePusherServer.withRunning { server in
            try await self.listenOnce(
                server, [], environment: ["HTTPS_PROXY": "ftp://u:pw@127.0.0.1:21", "NO_PROXY": server.host])
        }
    }

    @Test("a proxy answering 401: a line on stderr naming the status; the CLI keeps retrying")
    func proxyAnswering401() async throws {
        try await FakePusherServer.withRunning { server in
            try await TestProxy.withRunning(.http(refusal: 401)) { proxy in
                let cli = try CLIProcess(
                    self.connectionArguments(server) + ["--channel", "news", "--proxy", proxy.url()],
                    environment: Self.noProxyEnvironment)
                await cli.waitForStandardError(containing: "HTTP 401")
                try await proxy.waitUntil { $0.connections >= 2 }
                cli.send(signal: SIGINT)
                #expect(await cli.exitStatus() == 0)
                #expect(cli.standardError.contains("proxyFailed"), "stderr: \(cli.standardError)")
                #expect(proxy.snapshot.connections >= 2, "tried again after the backoff")
            }
        }
    }

    @Test("a proxy answering 407: a line on stderr naming it, never the password; the CLI keeps retrying")
    func refusingProxy() async throws {
        try await FakePusherServer.withRunning { server in
            try await TestProxy.withRunning(.http(credentials: ("alice", "pw"))) { proxy in
                let cli = try CLIProcess(
                    self.connectionArguments(server) + [
                        "--channel", "news", "--proxy", proxy.url(credentials: "alice:wrong-cli-pw"),
                    ], environment: Self.noProxyEnvironment)
                await cli.waitForStandardError(containing: "HTTP 407")
                // The retry after the backoff (1 s, real time: this is another process).
                try await proxy.waitUntil { $0.connections >= 2 }
                cli.send(signal: SIGINT)
                #expect(await cli.exitStatus() == 0)
                #expect(cli.standardError.contains("proxyFailed"), "stderr: \(cli.standardError)")
                #expect(cli.standardError.contains("127.0.0.1:\(proxy.port)"), "stderr: \(cli.standardError)")
                #expect(!cli.standardError.contains("wrong-cli-pw"))
                #expect(proxy.snapshot.connections >= 2, "tried again after the backoff")
            }
        }
    }
}
