// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Encrypted channels", .timeLimit(.minutes(1)))
struct EncryptedChannelTests {
    static let secret = "encrypted-app-secret"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let rotatedKey = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
    static let server = FakePusherServer.Configuration(appSecret: secret, encryptionMasterKey: masterKey)
    static let channel = "private-encrypted-orders"

    struct Order: Decodable, Equatable {
        var id: Int
    }

    /// A harness whose client authorizes through the server's auth endpoint over HTTP.
    func withEndpointHarness(_ body: (Harness) async throws -> Void) async throws {
        try await FakePusherServer.withRunning(configuration: Self.server) { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint)
            let clock = VirtualClock()
            let client = server.inMemoryClient(configuration: options, clock: clock)
            try await withRunningClient(client) { client in
                try await body(Harness(server: server, client: client, clock: clock))
            }
        }
    }

    /// A harness whose client authorizes through `script` (which hands out the server's current keys).
    func withScriptHarness(_ body: (Harness, AuthorizerScript) async throws -> Void) async throws {
        try await FakePusherServer.withRunning(configuration: Self.server) { server in
            let script = AuthorizerScript(key: server.appKey, secret: Self.secret, server: server)
            var options = server.clientConfiguration()
            options.authorizer = await script.authorizer
            let clock = VirtualClock()
            let client = server.inMemoryClient(configuration: options, clock: clock)
            try await withRunningClient(client) { client in
                try await body(Harness(server: server, client: client, clock: clock), script)
            }
        }
    }

    @Test("events are decrypted with the shared secret from the auth endpoint and decode like any other (case 39)")
    func decrypts() async throws {
        try await withEndpointHarness { harness in
            async let events = collect(harness.client.events(on: Self.channel), count: 2)
            await harness.server.waitForSubscribers(of: Self.channel)
            await harness.server.trigger(channel: Self.channel, event: "created", data: #"{"id":1}"#)
            await harness.server.trigger(channel: Self.channel, event: "note", data: "plain text")
            let received = try await events
            #expect(try received.first?.decode(Order.self) == Order(id: 1))
            #expect(received.map(\.data) == [#"{"id":1}"#, "plain text"])
            let authRequests = await harness.server.snapshot.authRequests
            #expect(authRequests.map { $0.fields["channel_name"] } == [Self.channel])
        }
    }

    @Test("in-process signing with the master key subscribes without an HTTP hop")
    func signingWithMasterKey() async throws {
        try await withHarness(
            server: Self.server,
            options: {
                $0.authorizer = .signing(key: Self.server.appKey, secret: Self.secret, masterKey: Self.masterKey)
            }
        ) { harness in
            async let events = collect(harness.client.events(on: Self.channel), count: 1)
            await harness.server.waitForSubscribers(of: Self.channel)
            await harness.server.trigger(channel: Self.channel, event: "created", data: #"{"id":7}"#)
            let received = try await events
            #expect(received.map(\.data) == [#"{"id":7}"#])
        }
    }

    @Test("after a key rotation the client reloads once and delivers every event in order (case 40)")
    func reloadAfterRotation() async throws {
        try await withEndpointHarness { harness in
            let consumer = Task { try await collect(harness.client.events(on: Self.channel), count: 3) }
            await harness.server.waitForSubscribers(of: Self.channel)
            await harness.server.trigger(channel: Self.channel, event: "e1", data: "1")
            await harness.server.rotateEncryptionMasterKey(Self.rotatedKey)
            await harness.server.trigger(channel: Self.channel, event: "e2", data: "2")
            await harness.server.trigger(channel: Self.channel, event: "e3", data: "3")
            let received = try await consumer.value
            #expect(received.map(\.name) == ["e1", "e2", "e3"])
            #expect(received.map(\.data) == ["1", "2", "3"])
            #expect(await harness.server.snapshot.authRequests.count == 2)
        }
    }

    @Test("while the key reloads, later events of the channel wait in order and other channels keep flowing")
    func orderDuringReload() async throws {
        try await withScriptHarness { harness, script in
            let consumer = Task { try await collect(harness.client.events(on: Self.channel), count: 4) }
            let ticks = Task { try await collect(harness.client.events(on: "public-feed"), count: 1) }
            await harness.server.waitForSubscribers(of: Self.channel)
            await harness.server.waitForSubscribers(of: "public-feed")
            await harness.server.trigger(channel: Self.channel, event: "e1", data: "1")
            await script.hold(2)
            await harness.server.rotateEncryptionMasterKey(Self.rotatedKey)
            await harness.server.trigger(channel: Self.channel, event: "e2", data: "2")
            await script.waitForRequests(2)
            await harness.server.trigger(channel: Self.channel, event: "e3", data: "3")
            await harness.server.trigger(channel: Self.channel, event: "e4", data: "4")
            // One socket delivers in order: once the tick arrived, e3 and e4 were received (and held).
            await harness.server.trigger(channel: "public-feed", event: "tick", data: "t")
            let tick = try await ticks.value
            #expect(tick.map(\.name) == ["tick"])
            await script.release(2)
            let received = try await consumer.value
            #expect(received.map(\.name) == ["e1", "e2", "e3", "e4"])
        }
    }

    @Test("a reload that times out skips only that event and reports it; the next failure reloads again (case 41)")
    func reloadTimeout() async throws {
        try await withScriptHarness { harness, script in
            var failures = harness.client.decryptionFailures(on: Self.channel).makeAsyncIterator()
            let consumer = Task { try await collect(harness.client.events(on: Self.channel), count: 2) }
            await harness.server.waitForSubscribers(of: Self.channel)
            await harness.server.trigger(channel: Self.channel, event: "e1", data: "1")
            await script.hold(2)
            await harness.server.rotateEncryptionMasterKey(Self.rotatedKey)
            await harness.server.trigger(channel: Self.channel, event: "e2", data: "2")
            await script.waitForRequests(2)
            await harness.clock.waitForDeadlines([.seconds(10)])
            #expect(await harness.client.scheduledTimers.map(\.deadline) == [.seconds(10), .seconds(120)])
            harness.clock.advance(by: .seconds(10))
            let failure = await failures.next()
            #expect(failure?.event == "e2")
            #expect(failure?.reason == .reloadFailed)
            #expect(failure?.message.contains("did not answer") == true)
            await harness.server.trigger(channel: Self.channel, event: "e3", data: "3")
            let received = try await consumer.value
            #expect(received.map(\.name) == ["e1", "e3"])
            #expect(await script.requests.count == 3)
        }
    }

    @Test(
        "malformed payloads are reported without a reload; the channel keeps flowing (case 42)",
        arguments: [
            "not json",
            #"{"ciphertext":"AAAA"}"#,
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"}"#,
            #"{"nonce":"%%%","ciphertext":"wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#,
            #"{"nonce":"AAECAw==","ciphertext":"wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#,
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"AAECAwQFBgc="}"#,
        ]
    )
    func malformedPayload(data: String) async throws {
        try await withEndpointHarness { harness in
            var failures = harness.client.decryptionFailures().makeAsyncIterator()
            async let events = collect(harness.client.events(on: Self.channel), count: 1)
            await harness.server.waitForSubscribers(of: Self.channel)
            let forged = PusherMessage(event: "forged", channel: Self.channel, data: data).serializedWithStringData
            await harness.server.send(raw: forged)
            await harness.server.trigger(channel: Self.channel, event: "good", data: "ok")
            let failure = await failures.next()
            #expect(failure?.event == "forged")
            #expect(failure?.reason == .malformedPayload)
            let received = try await events
            #expect(received.map(\.name) == ["good"])
            #expect(await harness.server.snapshot.authRequests.count == 1)
        }
    }

    @Test(
        "an authorization without a usable shared_secret fails the subscription (case 43)",
        arguments: [
            #"{"auth":"fake-app-key:0000"}"#,
            #"{"auth":"fake-app-key:0000","shared_secret":"c2hvcnQ="}"#,
        ])
    func missingSharedSecret(body: String) async throws {
        try await withEndpointHarness { harness in
            await harness.server.setAuthEndpoint(.respond(status: 200, body: body))
            await #expect {
                for try await _ in harness.client.events(on: Self.channel) {}
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .authorizationFailed && error?.message.contains("shared_secret") == true
            }
            #expect(await harness.server.snapshot.messages(named: "pusher:subscribe").isEmpty)
        }
    }

    @Test("keys do not outlive the connection: a reconnect fetches the current key, no reload needed (case 43)")
    func keysDroppedOnDisconnect() async throws {
        try await withEndpointHarness { harness in
            var signals = harness.client.subscriptionEvents(on: Self.channel).makeAsyncIterator()
            let consumer = Task { try await collect(harness.client.events(on: Self.channel), count: 2) }
            _ = await signals.next()
            await harness.server.trigger(channel: Self.channel, event: "e1", data: "1")
            await harness.server.rotateEncryptionMasterKey(Self.rotatedKey)
            await harness.server.close(code: 4200, reason: "reconnect")
            let resubscribed = await signals.next()
            #expect(
                resubscribed
                    == .succeeded(
                        channel: Self.channel, isResubscription: true, missedWindow: resubscribed?.missedWindow))
            await harness.server.trigger(channel: Self.channel, event: "e2", data: "2")
            let received = try await consumer.value
            #expect(received.map(\.data) == ["1", "2"])
            #expect(await harness.server.snapshot.authRequests.count == 2)
        }
    }

    @Test("encrypted channels refuse provided authorizations and client events")
    func refusals() async throws {
        try await withEndpointHarness { harness in
            let provided = ProvidedAuthorization(
                ChannelAuthorization(auth: "k:s", sharedSecret: Self.masterKey), socketID: "1.1")
            await #expect {
                for try await _ in harness.client.events(on: Self.channel, authorization: provided) {}
            } throws: { error in
                (error as? PusherError)?.code == .invalidConfiguration
            }
            let consumer = Task { try await collect(harness.client.events(on: Self.channel), count: 1) }
            await harness.server.waitForSubscribers(of: Self.channel)
            await #expect {
                try await harness.client.trigger("client-hi", on: Self.channel, data: "{}")
            } throws: { error in
                (error as? PusherError)?.code == .clientEventRejected
            }
            await harness.server.trigger(channel: Self.channel, event: "e", data: "x")
            _ = try await consumer.value
        }
    }
}
