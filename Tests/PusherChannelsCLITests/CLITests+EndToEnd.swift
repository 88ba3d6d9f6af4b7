// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `trigger` and `webhooks` against the in-process fake server's HTTP API and webhooks.
extension CLITests {
    static let endToEndServer = FakePusherServer.Configuration(
        appSecret: CLITests.secret, encryptionMasterKey: CLITests.masterKey, appID: "4321")

    /// Reads `count` events from `sequence`.
    static func collect(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
        var events: [ChannelEvent] = []
        for try await event in sequence {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    func fakeServerArguments(_ command: String, _ server: FakePusherServer) -> [String] {
        [
            command, "--app-id", "4321", "--key", server.appKey, "--host", server.host, "--port", "\(server.port)",
            "--no-tls",
        ]
    }

    @Test("trigger and trigger --batch reach a subscribed client through the fake server, encrypted ones decrypted")
    func triggerThroughFakeServer() async throws {
        try await FakePusherServer.withRunning(configuration: Self.endToEndServer) { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint)
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                async let plain = Self.collect(client.events(on: "prices"), count: 3)
                async let sealed = Self.collect(client.events(on: "private-encrypted-vault"), count: 2)
                await server.waitForSubscribers(of: "prices")
                await server.waitForSubscribers(of: "private-encrypted-vault")
                let environment = ["PUSHER_SECRET": Self.secret, "PUSHER_MASTER_KEY": Self.masterKey]
                let single = try await self.run(
                    self.fakeServerArguments("trigger", server) + [
                        "--channel", "prices", "--event", "update", "--data", #"{"price":1}"#, "--info",
                        "subscription_count",
                    ],
                    environment: environment)
                #expect(await single.exitStatus() == 0, "stderr: \(single.standardError)")
                #expect(single.standardOutputLines == [#"{"channels":{"prices":{"subscription_count":1}}}"#])
                let encrypted = try await self.run(
                    self.fakeServerArguments("trigger", server) + [
                        "--channel", "private-encrypted-vault", "--event", "sealed", "--data", "-",
                    ],
                    input: "opened once\n", environment: environment)
                #expect(await encrypted.exitStatus() == 0, "stderr: \(encrypted.standardError)")
                let batch = try await self.run(
                    self.fakeServerArguments("trigger", server) + ["--batch"],
                    input: """
                        {"channel":"prices","event":"update","data":{"price":2}}
                        {"channel":"private-encrypted-vault","event":"sealed","data":"opened twice"}
                        {"channel":"prices","event":"update","data":"3"}
                        """,
                    environment: environment)
                #expect(await batch.exitStatus() == 0, "stderr: \(batch.standardError)")
                #expect(batch.standardOutputLines == ["{}"])
                #expect(try await plain.map(\.data) == [#"{"price":1}"#, #"{"price":2}"#, "3"])
                #expect(try await sealed.map(\.data) == ["opened once", "opened twice"])
            }
        }
    }

    @Test("webhooks prints the fake server's signed webhooks: channel occupied, member added")
    func webhooksFromFakeServer() async throws {
        let (cli, port) = try await self.startWebhooks()
        var configuration = FakePusherServer.Configuration(appSecret: Self.secret)
        configuration.webhooks = .init(
            url: "http://127.0.0.1:\(port)/pusher/webhooks", key: Self.webhookKey, secret: Self.secret)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            var options = server.clientConfiguration()
            options.authorizer = .signing(key: server.appKey, secret: Self.secret) { _ in PresenceMember(userID: "u7") }
            let client = PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                // The snapshot: subscribed. The iterator lives on, so the channel stays occupied.
                var changes = client.presence(on: "presence-room").makeAsyncIterator()
                _ = try await changes.next()
                var lines = cli.lines.makeAsyncIterator()
                var received: [JSONValue] = []
                while received.count < 2, let line = await lines.next() {
                    received.append(try JSONValue(parsing: line))
                }
                let names = received.map { $0["name"]?.stringValue }
                #expect(Set(names) == ["channel_occupied", "member_added"], "\(received)")
                #expect(received.allSatisfy { $0["channel"] == "presence-room" && $0["time_ms"] != nil })
                #expect(received.contains { $0["user_id"] == "u7" })
                withExtendedLifetime(changes) {}
            }
        }
        cli.send(signal: SIGTERM)
        #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        #expect(!cli.standardError.contains("webhooks: 401"), "stderr: \(cli.standardError)")
    }
}
