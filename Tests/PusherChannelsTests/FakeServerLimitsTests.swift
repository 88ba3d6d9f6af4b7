// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import PusherChannels
import PusherChannelsTesting
import Testing

// Loopback: the bounds are about sockets.
@Suite("FakePusherServer's bounds: connections, handshake time, request bytes", .timeLimit(.minutes(1)))
struct FakeServerLimitsTests {
    /// A TCP connection to `port` that sends nothing.
    static func silentConnection(port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
    }

    @Test("a connection that sends no request within the handshake timeout is closed")
    func handshakeTimeout() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.handshakeTimeout = .milliseconds(200)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let silent = try await Self.silentConnection(port: server.port)
            let begun = ContinuousClock.now
            try await silent.closeFuture.get()
            #expect(ContinuousClock.now - begun < .seconds(5))
        }
    }

    @Test("connections over the bound are closed at once; the ones within it are served")
    func connectionBound() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.connections = 2
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let path = "/app/\(server.appKey)?protocol=7"
            try await RawWebSocket.withConnection(port: server.port, path: path) { first in
                #expect(try await first.next(event: "pusher:connection_established") != nil)
                try await RawWebSocket.withConnection(port: server.port, path: path) { second in
                    #expect(try await second.next(event: "pusher:connection_established") != nil)
                    let begun = ContinuousClock.now
                    let third = try await Self.silentConnection(port: server.port)
                    try await third.closeFuture.get()
                    // At once, not after the handshake timeout (10 s).
                    #expect(ContinuousClock.now - begun < .seconds(5))
                    #expect(await server.snapshot.openConnections.count == 2)
                }
            }
        }
    }

    @Test("an HTTP request body over the bound gets 413")
    func requestBytes() async throws {
        var configuration = FakePusherServer.Configuration(appSecret: "secret")
        configuration.limits.requestBytes = 1_000
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/apps/\(server.appID)/events")
            request.method = .POST
            request.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "a"), count: 2_000))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 413)
        }
    }
}
