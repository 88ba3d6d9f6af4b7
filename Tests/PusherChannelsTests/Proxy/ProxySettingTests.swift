// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Proxies: URLs, redaction and the proxy environment")
struct ProxySettingTests {
    struct URLCase: Sendable, CustomTestStringConvertible {
        var url: String
        var proxy: PusherProxy
        var testDescription: String { self.url }
    }

    static let urls: [URLCase] = [
        .init(url: "http://proxy.example:3128", proxy: PusherProxy(.httpConnect, host: "proxy.example", port: 3128)),
        .init(url: "HTTP://proxy.example:3128/", proxy: PusherProxy(.httpConnect, host: "proxy.example", port: 3128)),
        .init(
            url: "http://user:pa%40ss%3Aw%2Frd@10.0.0.1:8080",
            proxy: PusherProxy(.httpConnect, host: "10.0.0.1", port: 8080, username: "user", password: "pa@ss:w/rd")),
        .init(
            url: "http://a%20b@proxy:1", proxy: PusherProxy(.httpConnect, host: "proxy", port: 1, username: "a b")),
        .init(url: "socks5://[::1]:1080", proxy: PusherProxy(.socks5, host: "::1", port: 1080)),
        .init(
            url: "socks5h://u:p@socks.example:1080",
            proxy: PusherProxy(.socks5, host: "socks.example", port: 1080, username: "u", password: "p")),
        .init(
            url: "http://u:p@ss@proxy:3128",
            proxy: PusherProxy(.httpConnect, host: "proxy", port: 3128, username: "u", password: "p@ss")),
    ]

    @Test("proxy URLs are read, user info percent-decoded", arguments: Self.urls)
    func parses(_ example: URLCase) throws {
        #expect(try PusherProxy(url: example.url) == example.proxy)
    }

    @Test(
        "bad proxy URLs are invalidConfiguration without the password",
        arguments: [
            ("https://u:s3cret@proxy:443", "unknown scheme https://"),
            ("socks4://u:s3cret@proxy:1080", "unknown scheme socks4://"),
            ("http://u:s3cret@proxy", "no port"),
            ("http://u:s3cret@proxy:0", "port must be"),
            ("http://u:s3cret@proxy:99999", "port must be"),
            ("http://u:s3cret@:3128", "no host"),
            ("proxy:3128", "no scheme"),
            ("http://u:s3cret@proxy:3128/path", "no path"),
            ("http://u:s3cr/et@proxy", "no port"),
            ("http://u:s3cret%zz@proxy:1", "percent escape in the password"),
            ("ftp://s3cret-token@proxy:1", "unknown scheme ftp://"),
            ("http://:s3cret@proxy:1", "an empty username"),
            ("socks5://\(String(repeating: "u", count: 256)):s3cret@proxy:1", "username is at most 255 bytes"),
            ("socks5://u:s3cret\(String(repeating: "p", count: 250))@proxy:1", "password is at most 255 bytes"),
        ])
    func refuses(_ url: String, _ reason: String) {
        let error = #expect(throws: PusherError.self) { try PusherProxy(url: url) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.contains("s3cr") == false, "\(String(describing: error))")
    }

    @Test("description, debugDescription and Mirror show neither the username nor the password")
    func redaction() throws {
        let proxy = try PusherProxy(url: "http://alice:top-secret@proxy.example:3128")
        #expect(proxy.description == "http://***@proxy.example:3128")
        #expect(
            try PusherProxy(url: "http://TOKEN123@proxy.example:3128").description == "http://***@proxy.example:3128")
        #expect(!proxy.debugDescription.contains("top-secret"))
        #expect(!String(reflecting: proxy).contains("top-secret"))
        var dumped = ""
        dump(proxy, to: &dumped)
        #expect(!dumped.contains("top-secret"))
        #expect(!dumped.contains("alice"))
        #expect(!proxy.debugDescription.contains("alice"))
        var options = PusherClientConfiguration(host: "ws.example")
        options.proxy = .proxy(proxy)
        var dumpedOptions = ""
        dump(options, to: &dumpedOptions)
        #expect(!dumpedOptions.contains("top-secret"))
        #expect(!"\(options.proxy)".contains("top-secret"))
    }

    struct EnvironmentCase: Sendable, CustomTestStringConvertible {
        var name: String
        var host: String
        var environment: [String: String]
        /// The expected proxy's URL, nil for a direct connection.
        var proxy: String?
        var testDescription: String { self.name }
    }

    static let environments: [EnvironmentCase] = [
        .init(name: "nothing set", host: "ws.example", environment: [:], proxy: nil),
        .init(
            name: "HTTP_PROXY is not read", host: "ws.example", environment: ["HTTP_PROXY": "http://p:1"], proxy: nil),
        .init(
            name: "HTTPS_PROXY", host: "ws.example", environment: ["HTTPS_PROXY": "http://p:1"], proxy: "http://p:1"),
        .init(
            name: "https_proxy", host: "ws.example", environment: ["https_proxy": "http://p:2"], proxy: "http://p:2"),
        .init(
            name: "HTTPS_PROXY before ALL_PROXY", host: "ws.example",
            environment: ["ALL_PROXY": "socks5://s:1", "HTTPS_PROXY": "http://p:1"], proxy: "http://p:1"),
        .init(
            name: "ALL_PROXY when no HTTPS_PROXY", host: "ws.example", environment: ["ALL_PROXY": "socks5://s:1"],
            proxy: "socks5://s:1"),
        .init(
            name: "all_proxy", host: "ws.example", environment: ["all_proxy": "socks5://s:2"], proxy: "socks5://s:2"),
        .init(
            name: "a blank HTTPS_PROXY is unset", host: "ws.example",
            environment: ["HTTPS_PROXY": " ", "ALL_PROXY": "socks5://s:1"], proxy: "socks5://s:1"),
        .init(
            name: "no scheme is http", host: "ws.example", environment: ["HTTPS_PROXY": "p.corp:3128"],
            proxy: "http://p.corp:3128"),
        .init(
            name: "loopback is not exempt by default", host: "127.0.0.1", environment: ["HTTPS_PROXY": "http://p:1"],
            proxy: "http://p:1"),
        .init(
            name: "localhost is not exempt by default", host: "localhost", environment: ["HTTPS_PROXY": "http://p:1"],
            proxy: "http://p:1"),
        .init(
            name: "NO_PROXY names the host", host: "ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "other.example, ws.example"], proxy: nil),
        .init(
            name: "NO_PROXY name matches subdomains", host: "eu.ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "ws.example"], proxy: nil),
        .init(
            name: "NO_PROXY name does not match a longer name", host: "notws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "ws.example"], proxy: "http://p:1"),
        .init(
            name: "NO_PROXY .suffix matches subdomains", host: "a.ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": ".ws.example"], proxy: nil),
        .init(
            name: "NO_PROXY .suffix does not match the bare name", host: "ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": ".ws.example"], proxy: "http://p:1"),
        .init(
            name: "NO_PROXY *.suffix is .suffix", host: "a.ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "*.ws.example"], proxy: nil),
        .init(
            name: "NO_PROXY is case-insensitive", host: "WS.Example",
            environment: ["HTTPS_PROXY": "http://p:1", "no_proxy": "ws.EXAMPLE"], proxy: nil),
        .init(
            name: "NO_PROXY IPv4 literal", host: "127.0.0.1",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "127.0.0.1"], proxy: nil),
        .init(
            name: "NO_PROXY IPv4 literal does not match another address", host: "127.0.0.2",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "127.0.0.1"], proxy: "http://p:1"),
        .init(
            name: "NO_PROXY IP literal is no name suffix", host: "10.0.0.1",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "0.1,0.0.1"], proxy: "http://p:1"),
        .init(
            name: "NO_PROXY IPv6 literal in another spelling", host: "::1",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "0:0::1"], proxy: nil),
        .init(
            name: "NO_PROXY IPv6 literal, bracketed", host: "::1",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "[::1]"], proxy: nil),
        .init(
            name: "NO_PROXY IPv6 literal, bare", host: "::1",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "::1"], proxy: nil),
        .init(
            name: "NO_PROXY entry with a port", host: "ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "ws.example:443"], proxy: nil),
        .init(
            name: "NO_PROXY *", host: "anything.example", environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "*"],
            proxy: nil),
        .init(
            name: "NO_PROXY before no_proxy", host: "ws.example",
            environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "other.example", "no_proxy": "ws.example"],
            proxy: "http://p:1"),
        .init(
            name: "NO_PROXY exempts from ALL_PROXY too", host: "ws.example",
            environment: ["ALL_PROXY": "socks5://s:1", "NO_PROXY": "ws.example"], proxy: nil),
    ]

    @Test("the environment's proxy for a host", arguments: Self.environments)
    func environment(_ example: EnvironmentCase) throws {
        let proxy = try ProxyEnvironment.proxy(forHost: example.host, environment: example.environment)
        #expect(proxy?.description == example.proxy)
    }

    @Test("NO_PROXY applies to the environment only, not to a proxy given in the options")
    func noProxyOnlyForEnvironment() throws {
        let given = PusherProxy(.httpConnect, host: "p", port: 1)
        let environment = ["HTTPS_PROXY": "http://q:2", "NO_PROXY": "*"]
        #expect(
            try PusherClientConfiguration.proxy(.proxy(given), forHost: "ws.example", environment: environment) == given
        )
        #expect(
            try PusherClientConfiguration.proxy(.environment, forHost: "ws.example", environment: environment) == nil)
        #expect(try PusherClientConfiguration.proxy(.direct, forHost: "ws.example", environment: environment) == nil)
    }

    @Test("an unreadable environment proxy is invalidConfiguration naming the variable, not the password")
    func badEnvironmentValue() {
        let error = #expect(throws: PusherError.self) {
            try ProxyEnvironment.proxy(forHost: "ws.example", environment: ["ALL_PROXY": "ftp://u:hidden@p:1"])
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.hasPrefix("ALL_PROXY: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("hidden") == false)
    }

    @Test(
        "a proxy given part by part that the client cannot use fails connect(): invalidConfiguration, no socket",
        arguments: [
            (PusherProxy(.httpConnect, host: "", port: 3128), "no host"),
            (PusherProxy(.httpConnect, host: "p", port: 0), "port must be"),
            (PusherProxy(.socks5, host: "p", port: 70_000), "port must be"),
            (PusherProxy(.httpConnect, host: "p", port: 1, username: "", password: "s3cret"), "an empty username"),
            (
                PusherProxy(
                    .socks5, host: "p", port: 1, username: String(repeating: "é", count: 128), password: "s3cret"),
                "username is at most 255 bytes"
            ),
            (
                PusherProxy(
                    .socks5, host: "p", port: 1, username: "u", password: "s3cret" + String(repeating: "x", count: 250)),
                "password is at most 255 bytes"
            ),
        ] as [(PusherProxy, String)])
    func invalidProxyOption(_ proxy: PusherProxy, _ reason: String) async throws {
        try await withInMemoryClient(configuration: { $0.proxy = .proxy(proxy) }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await states.collect { $0 != .initialized }.last
            let failure = try #require(first?.failure)
            #expect(failure.code == .invalidConfiguration)
            #expect(failure.message.contains("invalid option proxy "), "\(failure.message)")
            #expect(failure.message.contains(reason), "\(failure.message)")
            #expect(!failure.description.contains("s3cret"))
            #expect(harness.transport.connections.isEmpty)
        }
    }
}
