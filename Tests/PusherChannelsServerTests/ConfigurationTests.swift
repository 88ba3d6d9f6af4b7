// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

@Suite("Server configuration")
struct ConfigurationTests {
    static let secret = "s3cr3t-never-printed"

    @Test("a cluster is api-CLUSTER.pusher.com over TLS on 443, with Pusher's limits and a 5 s timeout")
    func cluster() throws {
        let configuration = try PusherServerConfiguration(appID: "1", key: "k", secret: Self.secret, cluster: "eu")
        #expect(configuration.host == "api-eu.pusher.com")
        #expect(configuration.port == 443)
        #expect(configuration.useTLS)
        #expect(configuration.timeout == .seconds(5))
        #expect(configuration.limits == .pusher)
        #expect(configuration.encryptionMasterKey == nil)
    }

    @Test("a cluster must be one DNS label", arguments: ["", "eu.evil.com", "eu/x", "-eu", "eu-", "e u", "eu:80"])
    func invalidClusters(cluster: String) {
        #expect(throws: PusherServerError.self) {
            try PusherServerConfiguration(appID: "1", key: "k", secret: Self.secret, cluster: cluster)
        }
    }

    @Test("host, port and TLS; the default port follows TLS")
    func host() throws {
        let plain = try PusherServerConfiguration(
            appID: "1", key: "k", secret: Self.secret, host: "soketi", useTLS: false)
        #expect(plain.port == 80)
        let tls = try PusherServerConfiguration(appID: "1", key: "k", secret: Self.secret, host: "soketi")
        #expect(tls.port == 443)
        let custom = try PusherServerConfiguration(appID: "1", key: "k", secret: Self.secret, host: "::1", port: 6001)
        #expect(custom.port == 6001)
        for (host, port) in [("", 80), ("a/b", 80), ("a b", 80), ("user@host", 80), ("h", 0), ("h", 65_536)] {
            #expect(throws: PusherServerError.self) {
                try PusherServerConfiguration(appID: "1", key: "k", secret: Self.secret, host: host, port: port)
            }
        }
        for (appID, key, secret) in [("", "k", "s"), ("a/b", "k", "s"), ("1", "", "s"), ("1", "k", "")] {
            #expect(throws: PusherServerError.self) {
                try PusherServerConfiguration(appID: appID, key: key, secret: secret, host: "h")
            }
        }
    }

    @Test("init(url:) reads http(s)://KEY:SECRET@HOST[:PORT]/apps/ID")
    func url() throws {
        let https = try PusherServerConfiguration(url: "https://key:\(Self.secret)@api-eu.pusher.com/apps/1234")
        #expect(https.appID == "1234")
        #expect(https.key == "key")
        #expect(https.secret == Self.secret)
        #expect(https.host == "api-eu.pusher.com")
        #expect(https.port == 443)
        #expect(https.useTLS)
        let http = try PusherServerConfiguration(url: "HTTP://key:sec%40ret%3A@127.0.0.1:6001/apps/app-1/")
        #expect(http.secret == "sec@ret:")
        #expect(http.port == 6001)
        #expect(!http.useTLS)
        #expect(http.appID == "app-1")
        let plainDefault = try PusherServerConfiguration(url: "http://key:secret@soketi/apps/1")
        #expect(plainDefault.port == 80)
        let ipv6 = try PusherServerConfiguration(url: "http://key:secret@[::1]:8080/apps/1")
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 8080)
    }

    @Test(
        "init(url:) refuses other forms, and never repeats the URL",
        arguments: [
            "ftp://key:SECRETVALUE@host/apps/1", "https://host/apps/1", "https://keySECRETVALUE@host/apps/1",
            "https://key:SECRETVALUE@host/apps", "https://key:SECRETVALUE@host/apps/1/events",
            "https://key:SECRETVALUE@host/v2/1", "https://key:SECRETVALUE@host:port/apps/1",
            "https://key:SECRETVALUE@host/apps/1?x=1", "https://key:SECRETVALUE%zz@host/apps/1",
            "https://key:SECRETVALUE@:80/apps/1", "https://key:SECRETVALUE@[::1/apps/1",
        ])
    func invalidURLs(url: String) {
        do {
            _ = try PusherServerConfiguration(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(!error.description.contains("SECRETVALUE"))
        }
    }

    @Test("a master key is exactly 32 bytes, from base64 or bytes")
    func masterKey() throws {
        _ = try PusherServerConfiguration.MasterKey(base64: TestApp.masterKeyBase64)
        _ = try PusherServerConfiguration.MasterKey(bytes: Array(0..<32))
        for text in ["", "AAEC", "not base64!", String(TestApp.masterKeyBase64.dropLast(4))] {
            #expect(throws: PusherServerError.self) { try PusherServerConfiguration.MasterKey(base64: text) }
        }
        #expect(throws: PusherServerError.self) { try PusherServerConfiguration.MasterKey(bytes: Array(0..<31)) }
        #expect(throws: PusherServerError.self) { try PusherServerConfiguration.MasterKey(bytes: Array(0..<33)) }
    }

    @Test("neither the secret nor the master key is in descriptions, dumps or mirrors")
    func secretsNeverShown() throws {
        let keyBytes = Array(repeating: UInt8(0xAB), count: 32)
        let masterKey = try PusherServerConfiguration.MasterKey(bytes: keyBytes)
        let configuration = try PusherServerConfiguration(
            appID: "1", key: "public-key", secret: Self.secret, cluster: "eu", encryptionMasterKey: masterKey)
        var dumped = ""
        dump(configuration, to: &dumped)
        var dumpedKey = ""
        dump(masterKey, to: &dumpedKey)
        let texts = [
            configuration.description, String(reflecting: configuration), "\(configuration)", dumped, dumpedKey,
            masterKey.description, String(reflecting: masterKey),
            "\(Mirror(reflecting: configuration).children.map { "\($0.label ?? ""): \($0.value)" })",
        ]
        for text in texts {
            #expect(!text.contains(Self.secret))
            #expect(!text.contains("171, 171"))
            #expect(!text.contains("ABAB") && !text.contains("abab") && !text.contains("q6ur"))
        }
        #expect(configuration.description.contains("public-key"))
        #expect(configuration.description.contains("api-eu.pusher.com"))
    }

    @Test("Limits: Pusher's values and none")
    func limits() {
        let pusher = PusherServerConfiguration.Limits.pusher
        #expect(pusher.channelsPerTrigger == 100)
        #expect(pusher.eventsPerBatch == 10)
        #expect(pusher.dataBytes == 10_240)
        #expect(pusher.channelNameLength == 164)
        #expect(pusher.eventNameLength == 200)
        let none = PusherServerConfiguration.Limits.none
        #expect(none.channelsPerTrigger == nil && none.eventsPerBatch == nil && none.dataBytes == nil)
        #expect(none.channelNameLength == nil && none.eventNameLength == nil)
    }

    @Test("retryability of each code")
    func retryable() {
        #expect(PusherServerError(.timeout, "t").isRetryable)
        #expect(PusherServerError(.transport, "t").isRetryable)
        #expect(!PusherServerError(.invalidArgument, "a").isRetryable)
        #expect(!PusherServerError(.limitExceeded, "a").isRetryable)
        #expect(!PusherServerError(.invalidConfiguration, "a").isRetryable)
        #expect(!PusherServerError(.undecodableResponse, "a", httpStatus: 200).isRetryable)
        #expect(!PusherServerError(.invalidSignature, "a").isRetryable)
        #expect(PusherServerError(.httpStatus, "a", httpStatus: 502).isRetryable)
        #expect(!PusherServerError(.httpStatus, "a", httpStatus: 409).isRetryable)
    }
}
