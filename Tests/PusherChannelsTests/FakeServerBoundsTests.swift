// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: the bounds `serve` runs with, on sockets.
@Suite("FakePusherServer's bounds: WebSockets apart from HTTP, queued bytes, nothing kept", .timeLimit(.minutes(1)))
struct FakeServerBoundsTests {
    static let path = "/app/fake-app-key?protocol=7"

    @Test("with every WebSocket slot taken, an upgrade gets 503 and the HTTP API still answers")
    func webSocketsFull() async throws {
        var configuration = FakePusherServer.Configuration(appSecret: "secret")
        configuration.limits.connections = 2
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            try await RawWebSocket.withConnection(port: server.port, path: Self.path) { first in
                _ = try await first.next(event: "pusher:connection_established")
                try await RawWebSocket.withConnection(port: server.port, path: Self.path) { second in
                    _ = try await second.next(event: "pusher:connection_established")
                    await #expect(throws: PusherError.self) {
                        try await RawWebSocket.withConnection(port: server.port, path: Self.path) { _ in }
                    }
                    let publisher = PusherServer(
                        configuration: try PusherServerConfiguration(
                            appID: server.appID, key: server.appKey, secret: "secret", host: "127.0.0.1",
                            port: server.port, useTLS: false, timeout: .seconds(5)))
                    let begun = ContinuousClock.now
                    #expect(try await publisher.channels().channels.isEmpty)
                    #expect(ContinuousClock.now - begun < .seconds(1))
                }
            }
        }
    }

    @Test("a client that never reads is disconnected once Limits.queuedBytes wait for it")
    func queuedBytes() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.queuedBytes = 256 * 1_024
        let disconnected = try await FakeServerLimitsTests.disconnectsSilentReader(configuration)
        #expect(disconnected, "the silent reader was not disconnected")
    }

    @Test("without recording, nothing of a closed connection is kept and no message is recorded")
    func nothingRecorded() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.recordsTraffic = false
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            for _ in 0..<3 {
                try await RawWebSocket.withConnection(port: server.port, path: Self.path) { socket in
                    _ = try await socket.next(event: "pusher:connection_established")
                    try await socket.send(#"{"event":"pusher:subscribe","data":{"channel":"a"}}"#)
                    _ = try await socket.next(event: "pusher_internal:subscription_succeeded")
                    let open = await server.snapshot
                    #expect(open.openConnections.count == 1)
                    #expect(open.subscribers(of: "a") == 1)
                    #expect(open.connections.allSatisfy { $0.received.isEmpty })
                }
                await server.waitUntil { $0.connections.isEmpty }
            }
            #expect(await server.snapshot.connections.isEmpty)
        }
    }

    @Test("the configuration's secrets do not show in description, dump or Mirror")
    func redacted() {
        var configuration = FakePusherServer.Configuration(appSecret: "s3cr3t-value", encryptionMasterKey: "bWFzdGVy")
        configuration.webhooks = .init(url: "http://user:pa55word@127.0.0.1:1/hook", secret: "hook-secret")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            dumped, configuration.description, String(describing: configuration),
            "\(Mirror(reflecting: configuration).children.map(\.value))",
        ] {
            #expect(!text.contains("s3cr3t-value"))
            #expect(!text.contains("bWFzdGVy"))
            #expect(!text.contains("hook-secret"))
            #expect(!text.contains("pa55word"))
        }
    }
}
