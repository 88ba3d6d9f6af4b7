// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import PusherChannels

// Listening on loopback, accepting connections, serving each WebSocket, stopping.
extension FakePusherServer {
    private enum UpgradeResult {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// Starts a server on ``Configuration/bindAddress`` and ``Configuration/port`` (a free loopback
    /// port by default; TLS only when ``Configuration/tls`` is set), runs `body`, then closes every
    /// connection, those still in their handshake included, and stops.
    public static func withRunning<Result: Sendable>(
        configuration: Configuration = Configuration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FakePusherServer) async throws -> Result
    ) async throws -> Result {
        let refusing = NIOLockedValueBox(false)
        let refusedCount = NIOLockedValueBox(0)
        let sslContext = try configuration.tls.map { try NIOSSLContext(configuration: $0.serverConfiguration()) }
        let limits = configuration.limits
        let handshakeTimeout = limits.handshakeTimeAmount
        let open = OpenChannels()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: configuration.bindAddress, port: configuration.port) {
                (channel: any Channel) -> EventLoopFuture<EventLoopFuture<UpgradeResult>> in
                // Over the connection bound: closed at once; its task ends on the failed upgrade.
                guard open.insert(channel, limit: limits.connections) else {
                    channel.close(promise: nil)
                    let refused: EventLoopFuture<UpgradeResult> = channel.eventLoop.makeFailedFuture(
                        ChannelError.inputClosed)
                    return channel.eventLoop.makeSucceededFuture(refused)
                }
                // The upgrade request (or a plain HTTP request's head) must come in time.
                let deadline = channel.eventLoop.scheduleTask(in: handshakeTimeout) { channel.close(promise: nil) }
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                        maxFrameSize: limits.frameBytes,
                        shouldUpgrade: { channel, _ in
                            let refuse = refusing.withLockedValue { $0 }
                            if refuse { refusedCount.withLockedValue { $0 += 1 } }
                            return channel.eventLoop.makeSucceededFuture(refuse ? nil : HTTPHeaders())
                        },
                        upgradePipelineHandler: { channel, head in
                            deadline.cancel()
                            return channel.eventLoop.makeCompletedFuture {
                                let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                                    wrappingChannelSynchronously: channel)
                                return UpgradeResult.websocket(asyncChannel, uri: head.uri)
                            }
                        }
                    )
                    let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            deadline.cancel()
                            return channel.eventLoop.makeCompletedFuture {
                                let asyncChannel = try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                                    wrappingChannelSynchronously: channel
                                )
                                return UpgradeResult.http(asyncChannel)
                            }
                        }
                    )
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: configuration)
                    )
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the fake server could not read its own port")
        }
        let (webhookBodies, webhookQueue) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingOldest(Self.queuedWebhooks))
        let webhookTargets = (configuration.webhooks.map { [$0] } ?? []) + configuration.additionalWebhooks
        let server = FakePusherServer(
            configuration: configuration, port: port, refusing: refusing, refusedCount: refusedCount,
            webhookQueue: webhookTargets.isEmpty ? nil : webhookQueue)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
            if !webhookTargets.isEmpty {
                group.addTask { await server.deliverWebhooks(webhookBodies, to: webhookTargets) }
            }
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await upgrade in inbound {
                            connections.addTask { await server.handle(upgrade) }
                        }
                    }
                }
            }
            let result: Result
            do {
                result = try await body(server)
            } catch {
                await server.dropAll()
                listener.channel.close(promise: nil)
                open.closeAll()
                group.cancelAll()
                throw error
            }
            await server.dropAll()
            listener.channel.close(promise: nil)
            // Connections still in their handshake wait in `upgrade.get()`, which cancellation does
            // not end: closing them does.
            open.closeAll()
            group.cancelAll()
            return result
        }
    }

    private nonisolated func handle(_ upgrade: EventLoopFuture<UpgradeResult>) async {
        do {
            switch try await upgrade.get() {
            case .websocket(let channel, let uri):
                try await self.serve(channel, uri: uri)
            case .http(let channel):
                try await self.serveHTTP(channel)
            }
        } catch {
            // A failed connection concerns only itself.
        }
    }

    private nonisolated func serve(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String) async throws
    {
        let bound = self.configuration.limits.queuedFrames
        let (frames, outbox) = AsyncStream.makeStream(
            of: WebSocketFrame.self, bufferingPolicy: bound.map { .bufferingOldest($0) } ?? .unbounded)
        let id = await self.open(uri: uri, sink: .loopback(outbox: outbox, channel: channel.channel))
        defer { outbox.finish() }
        try await channel.executeThenClose { inbound, outbound in
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in frames {
                        try await outbound.write(frame)
                    }
                }
                do {
                    for try await frame in inbound {
                        guard await self.received(frame, from: id) else { break }
                    }
                } catch {}
                group.cancelAll()
            }
        }
        await self.closed(id)
    }

    /// Stops: drops every connection, and refuses new ones (in memory there is no listener to close).
    private func dropAll() {
        self.refusing.withLockedValue { $0 = true }
        self.drop(nil)
    }
}
