// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: the bounds are about sockets.
@Suite(
    "FakePusherServer's bounds: connections, handshake time, frames, queued frames, request bytes, address",
    .timeLimit(.minutes(1)))
struct FakeServerLimitsTests {
    /// A TCP connection to `host:port` that sends nothing.
    static func silentConnection(host: String = "127.0.0.1", port: Int) async throws -> any Channel {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port).get()
    }

    /// Whether `channel` was closed within `timeout`; a channel still open after it is closed here
    /// (so a failing check never waits for the suite's time limit).
    static func closed(_ channel: any Channel, within timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await channel.closeFuture.get()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { try? await channel.close() }
            return first
        }
    }

    /// Whether `body` returned within `timeout` (it is cancelled otherwise).
    static func within(_ timeout: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await body()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test("a connection that sends no request within the handshake timeout is closed")
    func handshakeTimeout() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.handshakeTimeout = .milliseconds(200)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let silent = try await Self.silentConnection(port: server.port)
            // The default (10 s) would not close it in time.
            #expect(await Self.closed(silent, within: .seconds(8)), "not closed after the handshake timeout")
        }
    }

    @Test("a handshake timeout too long for Int64 nanoseconds starts the server (clamped, no trap)")
    func hugeHandshakeTimeout() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.handshakeTimeout = .seconds(Int64.max / 2)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            try await RawWebSocket.withConnection(port: server.port, path: "/app/\(server.appKey)?protocol=7") {
                socket in
                let established = try await socket.next(event: "pusher:connection_established")
                #expect(established != nil)
            }
        }
    }

    @Test("a WebSocket frame over Limits.frameBytes closes the connection; frames within it are read")
    func frameBytes() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.frameBytes = 4_096
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            try await RawWebSocket.withConnection(port: server.port, path: "/app/\(server.appKey)?protocol=7") {
                socket in
                _ = try await socket.next(event: "pusher:connection_established")
                let padding = String(repeating: "a", count: 3_000)
                try await socket.send(#"{"event":"pusher:ping","data":{},"pad":"\#(padding)"}"#)
                #expect(try await socket.next(event: "pusher:pong") != nil)
                let over = String(repeating: "a", count: 5_000)
                try await socket.send(#"{"event":"pusher:ping","data":{},"pad":"\#(over)"}"#)
                // Not answered: the connection is closed with 1009 (message too big), or just ends.
                let next = try? await socket.next()
                #expect(next == .close(code: 1009) || next == nil, "\(String(describing: next))")
            }
        }
    }

    @Test("a client that stops reading is disconnected once Limits.queuedFrames frames wait for it")
    func queuedFrames() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.queuedFrames = 8
        #expect(try await Self.disconnectsSilentReader(configuration), "the slow reader was not disconnected")
    }

    /// Whether a server with `configuration` disconnects a client that subscribes and then reads
    /// nothing while 4,000 events of 12 KiB (48 MB, more than the socket buffers hold; each frame
    /// under the raw client's own bound of 16 KiB) are triggered on its channel.
    static func disconnectsSilentReader(_ configuration: FakePusherServer.Configuration) async throws -> Bool {
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            try await RawWebSocket.withConnection(port: server.port, path: "/app/\(server.appKey)?protocol=7") {
                socket in
                _ = try await socket.next(event: "pusher:connection_established")
                try await socket.send(#"{"event":"pusher:subscribe","data":{"channel":"flood"}}"#)
                _ = try await socket.next(event: "pusher_internal:subscription_succeeded")
                let data = "\"" + String(repeating: "x", count: 12 * 1_024) + "\""
                for _ in 0..<4_000 {
                    _ = await server.trigger(channel: "flood", event: "big", data: data)
                    if await server.snapshot.openConnections.isEmpty { break }
                }
                return await Self.within(.seconds(20)) {
                    await server.waitUntil { $0.openConnections.isEmpty }
                }
            }
        }
    }

    #if os(Linux)
    // Linux routes all of 127.0.0.0/8 to loopback; other systems have only 127.0.0.1 by default.
    @Test("Configuration.bindAddress is the address listened on")
    func bindAddress() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.bindAddress = "127.0.0.2"
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let bound = try await Self.silentConnection(host: "127.0.0.2", port: server.port)
            try await bound.close()
            // 127.0.0.1 with the same port: nothing listens there, or another test's server that
            // holds the same port number on that address. Either way, not this server: a WebSocket
            // opened there does not show among its connections.
            let path = "/app/\(server.appKey)?protocol=7"
            _ = try? await RawWebSocket.withConnection(port: server.port, path: path) { socket in
                try await socket.next(event: "pusher:connection_established")
            }
            #expect(await server.snapshot.connections.isEmpty, "the server listened on 127.0.0.1 too")
        }
    }
    #endif

    @Test("pending connections over their bound are closed at once; the WebSockets are counted apart")
    func connectionBound() async throws {
        var configuration = FakePusherServer.Configuration()
        configuration.limits.pendingConnections = 1
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let path = "/app/\(server.appKey)?protocol=7"
            try await RawWebSocket.withConnection(port: server.port, path: path) { first in
                #expect(try await first.next(event: "pusher:connection_established") != nil)
                try await RawWebSocket.withConnection(port: server.port, path: path) { second in
                    #expect(try await second.next(event: "pusher:connection_established") != nil)
                    // The WebSockets do not count against the pending bound: one silent connection
                    // is kept, the next is closed.
                    let pending = try await Self.silentConnection(port: server.port)
                    #expect(await Self.closed(pending, within: .milliseconds(500)) == false)
                    let pendingAgain = try await Self.silentConnection(port: server.port)
                    let begun = ContinuousClock.now
                    let third = try await Self.silentConnection(port: server.port)
                    try await third.closeFuture.get()
                    try? await pendingAgain.close()
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
