// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

// Loopback: end to end through the HTTP API, whose only side is HTTP.
/// `PusherServer` through `FakePusherServer`'s HTTP API to `PusherClient` consumers, over loopback.
@Suite("End to end: PusherServer → FakePusherServer → PusherClient", .timeLimit(.minutes(1)))
struct FakeServerEndToEndTests {
    static let secret = "end-to-end-secret"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let fake = FakePusherServer.Configuration(appSecret: secret, encryptionMasterKey: masterKey)

    /// Timeouts are not what these tests are about: generous, so a slow run (ThreadSanitizer on a
    /// loaded machine) never turns an answer into a timeout.
    static let timeout = Duration.seconds(60)

    /// A publisher configured against the fake server from its public accessors.
    static func publisher(for server: FakePusherServer, masterKey: Bool = false) throws -> PusherServer {
        let configuration = try PusherServerConfiguration(
            appID: server.appID, key: server.appKey, secret: try #require(server.appSecret), host: server.host,
            port: server.port, useTLS: false, timeout: Self.timeout,
            encryptionMasterKey: masterKey ? try PusherServerConfiguration.MasterKey(base64: Self.masterKey) : nil)
        return PusherServer(configuration: configuration)
    }

    static func collect(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
        var events: [ChannelEvent] = []
        for try await event in sequence {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    @Test("trigger, Encodable data, socket_id exclusion, batch and queries")
    func plain() async throws {
        try await FakePusherServer.withRunning(configuration: Self.fake) { server in
            let pusher = try Self.publisher(for: server)
            let first = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            let second = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(first) { first in
                await server.waitForConnections(count: 1)
                let excluded = try #require(await server.snapshot.connections.first?.socketID)
                try await withRunningClient(second) { second in
                    async let firstEvents = Self.collect(first.events(on: "orders"), count: 2)
                    async let secondEvents = Self.collect(second.events(on: "orders"), count: 3)
                    await server.waitForSubscribers(of: "orders", count: 2)
                    // Queries while both consumers are subscribed (they leave once they have their events).
                    let channel = try await pusher.channel("orders", info: [.subscriptionCount])
                    #expect(channel.occupied)
                    #expect(channel.counts.subscriptionCount == 2)
                    let channels = try await pusher.channels()
                    #expect(Array(channels.channels.keys) == ["orders"])

                    let result = try await pusher.trigger(
                        channels: ["orders"], event: "created", data: #"{"id":1}"#, socketID: excluded,
                        info: [.subscriptionCount])
                    #expect(result.channels["orders"]?.subscriptionCount == 2)
                    struct Order: Encodable, Sendable { let id: Int }
                    try await pusher.trigger(channels: ["orders"], event: "created", data: Order(id: 2))
                    let batch = try await pusher.triggerBatch([
                        BatchEvent(channel: "orders", event: "shipped", data: #"{"id":1}"#, info: [.subscriptionCount])
                    ])
                    #expect(batch.events.map(\.subscriptionCount) == [2])

                    #expect(try await firstEvents.map(\.data) == [#"{"id":2}"#, #"{"id":1}"#])
                    #expect(try await secondEvents.map(\.name) == ["created", "created", "shipped"])
                }
            }
        }
    }

    @Test("an encrypted trigger is sealed by PusherServer and opened by the client with the same master key")
    func encrypted() async throws {
        let channel = "private-encrypted-orders"
        try await FakePusherServer.withRunning(configuration: Self.fake) { server in
            let pusher = try Self.publisher(for: server, masterKey: true)
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint)
            try await withRunningClient(PusherClient(key: server.appKey, configuration: options, clock: VirtualClock()))
            {
                client in
                async let events = Self.collect(client.events(on: channel), count: 2)
                await server.waitForSubscribers(of: channel)
                try await pusher.trigger(channels: [channel], event: "created", data: #"{"secret":"a"}"#)
                _ = try await pusher.triggerBatch([BatchEvent(channel: channel, event: "more", data: "plain text")])
                let received = try await events
                #expect(received.map(\.data) == [#"{"secret":"a"}"#, "plain text"])
                #expect(received.map(\.name) == ["created", "more"])
            }
        }
    }

    @Test("the fake server's 401 reaches PusherServer as an httpStatus error with the response body")
    func wrongSecret() async throws {
        try await FakePusherServer.withRunning(configuration: Self.fake) { server in
            let configuration = try PusherServerConfiguration(
                appID: server.appID, key: server.appKey, secret: "wrong", host: server.host, port: server.port,
                useTLS: false, timeout: Self.timeout)
            let pusher = PusherServer(configuration: configuration)
            do throws(PusherServerError) {
                try await pusher.trigger(channels: ["orders"], event: "created", data: "{}")
                Issue.record("a trigger signed with the wrong secret was accepted")
            } catch {
                #expect(error.code == .httpStatus)
                #expect(error.httpStatus == 401)
                #expect(error.responseBody?.hasPrefix("Invalid signature") == true)
                #expect(error.responseBody?.contains("wrong") == false)
            }
        }
    }
}
