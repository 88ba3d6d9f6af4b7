// SPDX-License-Identifier: MIT

import Logging
import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import ServiceLifecycle
import Testing

// Loopback: end to end with the real transport, its logging and service lifecycle.
@Suite("Service lifecycle and logging", .timeLimit(.minutes(1)))
struct IntegrationTests {
    @Test("as a Service in a ServiceGroup, graceful shutdown closes the socket with 1000 and run() returns")
    func serviceGroup() async throws {
        try await FakePusherServer.withRunning { server in
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            let group = ServiceGroup(
                configuration: .init(
                    services: [client], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            )
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var states = client.connectionStates.makeAsyncIterator()
                _ = await states.connectedSocketID()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            await server.waitUntil { $0.openConnections.isEmpty }
            let connection = try #require(await server.snapshot.connections.first)
            #expect(connection.clientCloseCode == 1000)
            #expect(await client.state == .disconnected)
        }
    }

    @Test("logs only through the given logger; payloads and socket data never above trace")
    func loggingPolicy() async throws {
        let records = LogRecords()
        var logger = Logger(label: "pusher-test", factory: { _ in records.handler })
        logger.logLevel = .trace
        try await FakePusherServer.withRunning { server in
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock(), logger: logger)
            try await withRunningClient(client) { client in
                async let events = collect(client.events(on: "secret-feed"), count: 1)
                await server.waitForSubscribers(of: "secret-feed")
                await server.trigger(channel: "secret-feed", event: "payload", data: #"{"card":"4111-SECRET"}"#)
                _ = try await events
            }
        }
        let all = records.all
        #expect(
            all.contains {
                $0.level == .debug && $0.message == "subscribed" && $0.metadata["pusher.channel"] == "secret-feed"
            })
        #expect(all.contains { $0.message == "connection state changed" })
        let aboveTrace = all.filter { $0.level > .trace }
        #expect(!aboveTrace.isEmpty)
        #expect(aboveTrace.allSatisfy { !$0.rendered.contains("4111-SECRET") })
        #expect(all.allSatisfy { $0.level < .info }, "nothing at info or above in normal operation")
    }

    @Test("encrypted channels: keys and plaintext are never logged, not even at trace, through a key reload")
    func encryptionSecretsNeverLogged() async throws {
        let records = LogRecords()
        var logger = Logger(label: "pusher-test", factory: { _ in records.handler })
        logger.logLevel = .trace
        let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        let rotated = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8="
        let channel = "private-encrypted-vault"
        var secrets: [String] = []
        try await FakePusherServer.withRunning(
            configuration: .init(appSecret: "app-secret", encryptionMasterKey: masterKey)
        ) { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint)
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock(), logger: logger)
            try await withRunningClient(client) { client in
                async let events = collect(client.events(on: channel), count: 2)
                await server.waitForSubscribers(of: channel)
                secrets.append(await server.sharedSecret(for: channel) ?? "?")
                await server.trigger(channel: channel, event: "payload", data: "PLAINTEXT-ONE")
                await server.rotateEncryptionMasterKey(rotated)
                secrets.append(await server.sharedSecret(for: channel) ?? "?")
                await server.trigger(channel: channel, event: "payload", data: "PLAINTEXT-TWO")
                let received = try await events
                #expect(received.map(\.data) == ["PLAINTEXT-ONE", "PLAINTEXT-TWO"])
            }
        }
        let all = records.all
        #expect(all.contains { $0.message == "reloading the key of an encrypted channel" })
        for secret in secrets + ["PLAINTEXT-ONE", "PLAINTEXT-TWO"] {
            #expect(all.allSatisfy { !$0.rendered.contains(secret) }, "\(secret) was logged")
        }
    }
}

/// Log records captured in memory.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        var rendered: String {
            message + " " + metadata.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        }
    }

    private let records = NIOLockedValueBox<[Record]>([])
    var all: [Record] { self.records.withLockedValue { $0 } }
    func append(_ record: Record) { self.records.withLockedValue { $0.append(record) } }
}

extension LogRecords {
    /// A log handler that captures every line here, with the logger's metadata merged in.
    var handler: ClosureLogHandler {
        ClosureLogHandler { event, metadata in
            var merged: [String: String] = [:]
            for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
                merged[key] = "\(value)"
            }
            self.append(.init(level: event.level, message: "\(event.message)", metadata: merged))
        }
    }
}
