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
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String, headers: [String: String])
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// An accepted connection, before its first request: the channel (to close it when the server
    /// stops before the request comes) and what the request turns it into.
    private struct Accepted: Sendable {
        let channel: any Channel
        let upgrade: EventLoopFuture<UpgradeResult>
        /// The server's count of connections, which knows why an upgrade was refused.
        let open: OpenChannels
    }

    /// Starts a server on ``Configuration/bindAddress`` (loopback by default) and
    /// ``Configuration/port`` (or a free port; TLS only when ``Configuration/tls`` is set), within
    /// ``Configuration/limits``, runs `body`, then closes every connection and stops.
    ///
    /// Stopping waits for no client: connections that never sent a request (an HTTP client's idle
    /// pooled connection, a silent peer) and idle HTTP keep-alive connections are closed too, so
    /// this returns promptly whatever clients left open.
    ///
    /// - Throws: `PusherError` with code `invalidConfiguration` for a port outside 0...65535 or a
    ///   webhook target (``Configuration/webhooks`` or one of ``Configuration/additionalWebhooks``)
    ///   without a secret or an `http://` or `https://` URL (see ``setWebhookTarget(_:)``),
    ///   `PusherError` with code `transportFailed` when the port cannot be listened on (in use), and
    ///   whatever `body` throws.
    public static func withRunning<Result: Sendable>(
        configuration: Configuration = Configuration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FakePusherServer) async throws -> Result
    ) async throws -> Result {
        guard (0...65_535).contains(configuration.port) else {
            throw PusherError(.invalidConfiguration, "the fake server's port must be in 0...65535")
        }
        let webhookTarget = try Self.resolved(configuration.webhooks, configuration: configuration)
        let additionalTargets = try configuration.additionalWebhooks.compactMap {
            try Self.resolved($0, configuration: configuration)
        }
        let (listener, refusing, refusedCount) = try await Self.listen(configuration: configuration)
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the fake server could not read its own port")
        }
        return try await Self.serving(
            configuration: configuration, port: port, listener: listener, refusing: refusing,
            refusedCount: refusedCount, webhookTarget: webhookTarget, additionalTargets: additionalTargets,
            isolation: isolation, body)
    }

    /// Runs a server with no listener at all, for clients connected in memory
    /// (``inMemoryClient(key:configuration:clock:logger:)``, ``clientTransport``), stopped when `body`
    /// returns: nothing binds a port, so any number run side by side, and a test needs no network.
    ///
    /// The server behaves as ``withRunning(configuration:isolation:_:)``'s does for such clients
    /// (handshake, channels, presence, client events, limits, scripting and recording); what only
    /// a port can offer is absent: ``port`` is 0, loopback clients (``clientConfiguration()`` on a real
    /// transport) cannot connect, and the auth endpoints and HTTP API are not served (use
    /// ``trigger(channel:event:data:userID:)`` and the other controls to publish). Webhooks, which the
    /// server sends, are delivered as usual.
    ///
    /// ```swift
    /// try await FakePusherServer.withInMemory { server in
    ///     let client = server.inMemoryClient(clock: VirtualClock())
    ///     try await withRunningClient(client) { client in
    ///         var events = client.events(on: "prices").makeAsyncIterator()
    ///         await server.waitForSubscribers(of: "prices")
    ///         await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
    ///         let event = try await events.next()
    ///         #expect(event?.data == #"{"price":1}"#)
    ///     }
    /// }
    /// ```
    public static func withInMemory<Result: Sendable>(
        configuration: Configuration = Configuration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (FakePusherServer) async throws -> Result
    ) async throws -> Result {
        let webhookTarget = try Self.resolved(configuration.webhooks, configuration: configuration)
        let additionalTargets = try configuration.additionalWebhooks.compactMap {
            try Self.resolved($0, configuration: configuration)
        }
        return try await Self.serving(
            configuration: configuration, port: 0, listener: nil, refusing: NIOLockedValueBox(false),
            refusedCount: NIOLockedValueBox(0), webhookTarget: webhookTarget, additionalTargets: additionalTargets,
            isolation: isolation, body)
    }

    /// The server's life, with or without a listener: webhook delivery, the silent-connection
    /// check every second, the accepted connections, then `body`; everything stops when it returns.
    private static func serving<Result: Sendable>(
        configuration: Configuration, port: Int, listener: NIOAsyncChannel<Accepted, Never>?,
        refusing: NIOLockedValueBox<Bool>, refusedCount: NIOLockedValueBox<Int>, webhookTarget: WebhookTarget?,
        additionalTargets: [WebhookTarget], isolation: isolated (any Actor)?,
        _ body: (FakePusherServer) async throws -> Result
    ) async throws -> Result {
        let (queues, webhookDeliverers) = AsyncStream.makeStream(of: WebhookQueue.self)
        let server = FakePusherServer(
            configuration: configuration, port: port, refusing: refusing, refusedCount: refusedCount,
            webhookDeliverers: webhookDeliverers, webhookTarget: webhookTarget,
            additionalWebhookTargets: additionalTargets)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
            group.addTask { await server.deliverWebhooks(queues) }
            // Silent connections pinged, unanswered pings closed (4201): checked every second.
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    await server.expireSilentConnections()
                }
            }
            if let listener {
                group.addTask {
                    try await withThrowingDiscardingTaskGroup { connections in
                        try await listener.executeThenClose { inbound in
                            for try await accepted in inbound {
                                connections.addTask { await server.handle(accepted) }
                            }
                        }
                    }
                }
            }
            let result: Result
            do {
                result = try await body(server)
            } catch {
                await server.dropAll()
                listener?.channel.close(promise: nil)
                group.cancelAll()
                throw error
            }
            await server.dropAll()
            listener?.channel.close(promise: nil)
            group.cancelAll()
            return result
        }
    }

    private static func listen(
        configuration: Configuration
    ) async throws -> (
        channel: NIOAsyncChannel<Accepted, Never>, refusing: NIOLockedValueBox<Bool>,
        refusedCount: NIOLockedValueBox<Int>
    ) {
        let refusing = NIOLockedValueBox(false)
        let refusedCount = NIOLockedValueBox(0)
        let sslContext = try configuration.tls.map { try NIOSSLContext(configuration: $0.serverConfiguration()) }
        let limits = configuration.limits
        let handshakeTimeout = limits.handshakeTimeAmount
        let open = OpenChannels()
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: configuration.bindAddress, port: configuration.port) { channel in
                    // Over the bound of pending connections: closed at once; its task ends on the
                    // failed upgrade. WebSockets are counted apart (see `upgradeConfiguration`).
                    guard open.insert(channel, limit: limits.pendingConnections) else {
                        channel.close(promise: nil)
                        let refused: EventLoopFuture<UpgradeResult> = channel.eventLoop.makeFailedFuture(
                            ChannelError.inputClosed)
                        return channel.eventLoop.makeSucceededFuture(
                            Accepted(channel: channel, upgrade: refused, open: open))
                    }
                    // The upgrade request (or a plain HTTP request's head) must come in time.
                    let deadline = channel.eventLoop.scheduleTask(in: handshakeTimeout) { channel.close(promise: nil) }
                    return channel.eventLoop.makeCompletedFuture {
                        if let sslContext {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                        }
                        let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                            configuration: .init(
                                upgradeConfiguration: Self.upgradeConfiguration(
                                    refusing: refusing, refusedCount: refusedCount, configuration: configuration,
                                    open: open, deadline: deadline))
                        )
                        return Accepted(channel: channel, upgrade: upgrade, open: open)
                    }
                }
            return (channel, refusing, refusedCount)
        } catch {
            throw PusherError(
                .transportFailed,
                "the fake server could not listen on \(configuration.bindAddress):\(configuration.port): \(error)")
        }
    }

    /// A WebSocket upgrade, or plain HTTP; either cancels the handshake's `deadline`. An upgrade is
    /// refused (and answered as plain HTTP: 503 or 403, see ``serveHTTP(_:)``) while
    /// ``refuseConnections(_:)`` is on, from an `Origin` not in ``Configuration/allowedOrigins``, and
    /// over ``Limits/connections`` WebSockets. A WebSocket's frames must be masked; fragments are
    /// joined, within ``Limits/frameBytes``.
    private static func upgradeConfiguration(
        refusing: NIOLockedValueBox<Bool>, refusedCount: NIOLockedValueBox<Int>, configuration: Configuration,
        open: OpenChannels, deadline: Scheduled<Void>
    ) -> NIOTypedHTTPServerUpgradeConfiguration<UpgradeResult> {
        let limits = configuration.limits
        let allowedOrigins = configuration.allowedOrigins
        let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
            maxFrameSize: limits.frameBytes,
            shouldUpgrade: { channel, head in
                let refuse = refusing.withLockedValue { $0 }
                if refuse { refusedCount.withLockedValue { $0 += 1 } }
                let accepted: Bool
                if refuse {
                    open.refuse(channel, .unavailable)
                    accepted = false
                } else if !Self.isAllowed(origin: head.headers.first(name: "origin"), allowedOrigins) {
                    open.refuse(channel, .origin)
                    accepted = false
                } else if !open.upgrade(channel, limit: limits.connections) {
                    open.refuse(channel, .unavailable)
                    accepted = false
                } else {
                    accepted = true
                }
                return channel.eventLoop.makeSucceededFuture(accepted ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                deadline.cancel()
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ClientFrameGuard(checksMasks: true),
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                            maxAccumulatedFrameSize: limits.frameBytes),
                        ClientFrameGuard(checksMasks: false))
                    let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                        wrappingChannelSynchronously: channel)
                    var headers: [String: String] = [:]
                    for (name, value) in head.headers { headers[name.lowercased()] = value }
                    return UpgradeResult.websocket(asyncChannel, uri: head.uri, headers: headers)
                }
            }
        )
        return NIOTypedHTTPServerUpgradeConfiguration(
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
    }

    /// Whether a WebSocket upgrade from `origin` is accepted: always without an `Origin` header or
    /// with no allowed origins configured; otherwise when it is one of them (without case).
    static func isAllowed(origin: String?, _ allowedOrigins: [String]) -> Bool {
        guard let origin, !allowedOrigins.isEmpty else { return true }
        return allowedOrigins.contains { $0.lowercased() == origin.lowercased() }
    }

    /// Serves one accepted connection. Until its first request arrives only cancellation (the
    /// server stopping) ends the wait: it closes the channel, which fails the pending upgrade.
    private nonisolated func handle(_ accepted: Accepted) async {
        do {
            let upgrade = try await withTaskCancellationHandler {
                try await accepted.upgrade.get()
            } onCancel: {
                accepted.channel.close(promise: nil)
            }
            switch upgrade {
            case .websocket(let channel, let uri, let headers):
                try await self.serve(channel, uri: uri, headers: headers)
            case .http(let channel):
                try await withTaskCancellationHandler {
                    try await self.serveHTTP(channel, refusal: accepted.open.refusal(of: accepted.channel))
                } onCancel: {
                    accepted.channel.close(promise: nil)
                }
            }
        } catch {
            // A failed connection concerns only itself.
        }
    }

    private nonisolated func serve(
        _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, uri: String, headers: [String: String]
    ) async throws {
        let bound = self.configuration.limits.queuedFrames
        let (frames, outbox) = AsyncStream.makeStream(
            of: WebSocketFrame.self, bufferingPolicy: bound.map { .bufferingOldest($0) } ?? .unbounded)
        let budget = OutboxBudget(limit: self.configuration.limits.queuedBytes)
        let id = await self.open(
            uri: uri, headers: headers, sink: .loopback(outbox: outbox, channel: channel.channel, budget: budget))
        defer { outbox.finish() }
        try await channel.executeThenClose { inbound, outbound in
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await frame in frames {
                        try await outbound.write(frame)
                        budget.remove(frame.length)
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
