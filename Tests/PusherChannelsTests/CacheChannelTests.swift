// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Cache channels", .timeLimit(.minutes(1)))
struct CacheChannelTests {
    static let secret = "cache-app-secret"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test(
        "the first event is pusher:cache_miss when nothing is cached, then live events (case 45)",
        arguments: ["cache-prices", "private-cache-prices", "private-encrypted-cache-prices", "presence-cache-room"]
    )
    func cacheMiss(channel: String) async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        try await withHarness(
            server: server,
            options: {
                $0.authorizer = .signing(key: server.appKey, secret: Self.secret, masterKey: Self.masterKey) { _ in
                    PresenceMember(userID: "u1")
                }
            }
        ) { harness in
            async let events = collect(harness.client.events(on: channel), count: 2)
            await harness.server.waitForSubscribers(of: channel)
            await harness.server.trigger(channel: channel, event: "price", data: "42")
            let received = try await events
            #expect(received.map(\.name) == ["pusher:cache_miss", "price"])
            #expect(received.first?.isCacheMiss == true)
            #expect(received.last?.data == "42")
        }
    }

    @Test(
        "a later subscriber gets the cached last event first (decrypted on encrypted cache channels)",
        arguments: ["cache-prices", "private-encrypted-cache-prices"])
    func cachedEvent(channel: String) async throws {
        let server = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        try await withHarness(
            server: server,
            options: {
                $0.authorizer = .signing(key: server.appKey, secret: Self.secret, masterKey: Self.masterKey)
            }
        ) { harness in
            await harness.server.trigger(channel: channel, event: "price", data: "41")
            await harness.server.trigger(channel: channel, event: "price", data: "42")
            let received = try await collect(harness.client.events(on: channel), count: 1)
            #expect(received.map(\.data) == ["42"])
            #expect(received.first?.isCacheMiss == false)
        }
    }
}
