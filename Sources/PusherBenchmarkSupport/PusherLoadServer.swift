// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A load generator that speaks just enough of Pusher Channels protocol 7 on a loopback WebSocket
/// to measure a client: it sends `pusher:connection_established`, confirms every
/// `pusher:subscribe`, answers `pusher:ping`, and once a connection has subscribed to all of the
/// configured channels, writes events to it as fast as the socket takes them.
///
/// Every event frame is encoded once, up front (``Configuration/payloadBytes`` of data, round-robin
/// over the channels, sealed with NaCl secretbox when ``Configuration/encrypted``), and sent as
/// slices of one buffer in writes of about 128 KiB, waiting whenever the socket is not writable:
/// the server's own CPU per event is a small fraction of any client's. It accepts any app key and
/// does not check authorizations.
///
/// ```swift
/// try await PusherLoadServer.withRunning(configuration: .init(channelCount: 1)) { server in
///     let client = PusherClient(key: "load", configuration: server.clientConfiguration())
///     try await withRunningClient(client) { client in
///         try await withThrowingTaskGroup { group in
///             group.addTask {
///                 var received = 0
///                 for try await _ in client.events(on: "load") { received += 1; if received == 100_000 { break } }
///             }
///             await server.waitUntilSubscribed()
///             await server.send(events: 100_000)
///             try await group.waitForAll()
///         }
///     }
/// }
/// ```
public actor PusherLoadServer {
    public nonisolated let configuration: Configuration
    /// The loopback port the server listens on.
    public nonisolated let port: Int
    public nonisolated let host = "127.0.0.1"

    private nonisolated let events: PreEncodedEvents
    private let channels: Set<String>
    private var connections: [Int: LoadServerConnection] = [:]
    private var nextConnectionID = 0
    private var readyWaiters: [(count: Int, signal: AsyncStream<Void>.Continuation)] = []

    private init(configuration: Configuration, port: Int, events: PreEncodedEvents) {
        self.configuration = configuration
        self.port = port
        self.events = events
        self.channels = Set(configuration.channels)
    }

    /// A client configuration that connects to this server (plain `ws://` on loopback), with an authorizer
    /// that hands out the encryption key as every channel's shared secret.
    public nonisolated func clientConfiguration() -> PusherClientConfiguration {
        var options = PusherClientConfiguration(host: self.host, port: self.port, useTLS: false)
        options.authorizer = Self.authorizer(encryptionKey: self.configuration.encryptionKey)
        return options
    }

    /// An authorizer for a load server: any `auth` (the server does not check it) and `encryptionKey`
    /// as the shared secret of encrypted channels.
    public static func authorizer(encryptionKey: [UInt8] = Configuration.defaultEncryptionKey) -> ChannelAuthorizer {
        let sharedSecret = Data(encryptionKey).base64EncodedString()
        return ChannelAuthorizer { _, channel in
            ChannelAuthorization(
                auth: "load:unsigned",
                sharedSecret: ChannelName.kind(of: channel) == .privateEncrypted ? sharedSecret : nil)
        }
    }

    /// How many open connections have subscribed to every configured channel.
    public var subscribedConnections: Int {
        self.connections.values.filter(\.isSubscribed).count
    }

    /// Waits until `count` open connections have subscribed to every configured channel (returns
    /// early when the task is cancelled).
    public func waitUntilSubscribed(connections count: Int = 1) async {
        guard self.subscribedConnections < count else { return }
        let (signal, continuation) = AsyncStream.makeStream(of: Void.self)
        self.readyWaiters.append((count, continuation))
        for await _ in signal {}
    }

    /// Queues `count` events for every connection that has subscribed to every channel, continuing
    /// the round over the channels where the last events stopped. Returns how many connections got
    /// them. The events are written as fast as each socket takes them, after what was queued before.
    @discardableResult
    public func send(events count: Int) -> Int {
        let ready = self.connections.values.filter(\.isSubscribed)
        for connection in ready { connection.commands.yield(.events(count)) }
        return ready.count
    }

    // MARK: Lifecycle

    private enum Upgrade {
        case websocket(NIOAsyncChannel<WebSocketFrame, ByteBuffer>)
        case notWebSocket(any Channel)
    }

    /// Starts a server on a free loopback port, runs `body`, then closes every connection and stops.
    ///
    /// - Throws: `PusherError` `invalidConfiguration` for no channels or a payload under 16
    ///   bytes, `encryptionUnavailable` for encrypted events where encryption is unavailable.
    public static func withRunning<Result: Sendable>(
        configuration: Configuration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PusherLoadServer) async throws -> Result
    ) async throws -> Result {
        let events = try PreEncodedEvents(configuration)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let pipeline = channel.pipeline.syncOperations
                                let encoder = try pipeline.context(handlerType: WebSocketFrameEncoder.self)
                                try pipeline.addHandler(FrameEncoderBypass(encoderContext: encoder))
                                return Upgrade.websocket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                            }
                        }
                    )
                    let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeSucceededFuture(.notWebSocket(channel))
                        }
                    )
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: configuration)
                    )
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the load server could not read its own port")
        }
        let server = PusherLoadServer(configuration: configuration, port: port, events: events)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await upgrade in inbound {
                            connections.addTask { await server.handle(upgrade) }
                        }
                    }
                }
            }
            defer {
                listener.channel.close(promise: nil)
                group.cancelAll()
            }
            do {
                let result = try await body(server)
                await server.closeAll()
                return result
            } catch {
                await server.closeAll()
                throw error
            }
        }
    }

    private nonisolated func handle(_ upgrade: EventLoopFuture<Upgrade>) async {
        do {
            switch try await upgrade.get() {
            case .websocket(let channel):
                try await self.serve(channel)
            case .notWebSocket(let channel):
                try await channel.close()
            }
        } catch {
            // A failed connection concerns only itself.
        }
    }

    private nonisolated func serve(_ channel: NIOAsyncChannel<WebSocketFrame, ByteBuffer>) async throws {
        let (commands, sink) = AsyncStream.makeStream(of: LoadServerConnection.Command.self)
        let stopping = NIOLockedValueBox(false)
        let id = await self.open(sink, stopping: stopping, channel: channel.channel)
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var cursor = EventCursor(self.events)
                    for await command in commands {
                        switch command {
                        case .frame(let bytes):
                            try await outbound.write(bytes)
                        case .events(var remaining):
                            while remaining > 0, !stopping.withLockedValue({ $0 }) {
                                let (bytes, count) = cursor.nextChunk(limit: remaining)
                                try await outbound.write(bytes)
                                remaining -= count
                            }
                        }
                    }
                }
                do {
                    for try await frame in inbound {
                        guard await self.received(frame, from: id) else { break }
                    }
                } catch {}
                // Unsent events are dropped; what else was queued (a close reply) still goes out.
                stopping.withLockedValue { $0 = true }
                sink.finish()
                try await group.waitForAll()
            }
        }
        await self.closed(id)
    }

    // MARK: Connection events

    private func open(
        _ commands: AsyncStream<LoadServerConnection.Command>.Continuation,
        stopping: NIOLockedValueBox<Bool>,
        channel: any Channel
    ) -> Int {
        self.nextConnectionID += 1
        let connection = LoadServerConnection(
            commands: commands, stopping: stopping, channel: channel, channelCount: self.channels.count)
        self.connections[self.nextConnectionID] = connection
        connection.send(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.1\",\"activity_timeout\":120}"}"#)
        return self.nextConnectionID
    }

    /// Handles one frame from a client; returns false when the connection is done.
    private func received(_ frame: WebSocketFrame, from id: Int) -> Bool {
        guard let connection = self.connections[id] else { return false }
        switch frame.opcode {
        case .text:
            let data = frame.unmaskedData
            switch LoadServerRequest(parsing: data.readableBytesView) {
            case .subscribe(let channel):
                let wasSubscribed = connection.isSubscribed
                if self.channels.contains(channel) { connection.subscribe(channel) }
                connection.send(
                    #"{"event":"pusher_internal:subscription_succeeded","channel":"# + PreEncodedEvents.quoted(channel)
                        + #","data":"{}"}"#)
                if !wasSubscribed && connection.isSubscribed { self.subscribed(connection) }
            case .ping:
                connection.send(#"{"event":"pusher:pong","data":"{}"}"#)
            case .other:
                break
            }
            return true
        case .ping:
            var pong = ByteBuffer()
            PreEncodedEvents.writeFrame(opcode: 0xA, payload: frame.unmaskedData.readableBytesView, to: &pong)
            connection.commands.yield(.frame(pong))
            return true
        case .connectionClose:
            var close = ByteBuffer()
            PreEncodedEvents.writeFrame(opcode: 0x8, payload: [0x03, 0xE8], to: &close)  // 1000, normal closure
            connection.commands.yield(.frame(close))
            return false
        default:
            return true
        }
    }

    private func subscribed(_ connection: LoadServerConnection) {
        if let count = self.configuration.eventsWhenSubscribed { connection.commands.yield(.events(count)) }
        let ready = self.subscribedConnections
        self.readyWaiters.removeAll { waiter in
            guard waiter.count <= ready else { return false }
            waiter.signal.finish()
            return true
        }
    }

    private func closed(_ id: Int) {
        self.connections[id] = nil
    }

    private func closeAll() {
        for connection in self.connections.values { connection.stop() }
        for waiter in self.readyWaiters { waiter.signal.finish() }
        self.readyWaiters = []
    }
}
