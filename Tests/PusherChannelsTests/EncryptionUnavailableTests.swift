// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Where no secretbox is available (forced here for one client only: the override is task-local),
/// subscribing to an encrypted channel fails with `encryptionUnavailable` and nothing reaches the
/// server; other channels work.
@Suite("Encryption unavailable", .timeLimit(.minutes(1)))
struct EncryptionUnavailableTests {
    @Test("an encrypted channel is refused with encryptionUnavailable; a public one works")
    func refused() async throws {
        let server = FakePusherServer.Configuration(
            appSecret: "secret", encryptionMasterKey: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        try await SecretBox.$forcedBackend.withValue(.unavailable) {
            try await withHarness(
                server: server, options: { $0.authorizer = .signing(key: server.appKey, secret: "secret") }
            ) { harness in
                await #expect {
                    for try await _ in harness.client.events(on: "private-encrypted-orders") {}
                } throws: { error in
                    let error = error as? PusherError
                    return error?.code == .encryptionUnavailable && error?.channel == "private-encrypted-orders"
                }
                async let events = collect(harness.client.events(on: "orders"), count: 1)
                await harness.server.waitForSubscribers(of: "orders")
                await harness.server.trigger(channel: "orders", event: "created", data: "1")
                let received = try await events
                #expect(received.map(\.data) == ["1"])
                let snapshot = await harness.server.snapshot
                let subscribed = snapshot.messages(named: "pusher:subscribe").compactMap(\.data)
                #expect(subscribed.count == 1)
                #expect(!subscribed.contains { $0.contains("encrypted") })
                #expect(snapshot.authRequests.isEmpty)
            }
        }
    }
}
