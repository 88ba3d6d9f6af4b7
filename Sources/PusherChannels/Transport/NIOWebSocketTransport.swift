// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import PusherCore

/// The real transport: a WebSocket over SwiftNIO (TLS through NIOSSL, framing and the upgrade from
/// NIOWebSocket). Frames are handled on the event loop by ``PusherFrameHandler``, which decodes
/// them and hands each socket read's messages to the client's engine at once, on that thread.
package struct NIOWebSocketTransport: PusherTransport {
    private let group: any EventLoopGroup
    private let tlsConfiguration: TLSConfiguration?
    private let proxy: PusherClientConfiguration.ProxySetting

    /// - Parameters:
    ///   - group: The event loops of its sockets.
    ///   - tlsConfiguration: TLS settings for `wss://`; nil uses NIOSSL's client defaults (the
    ///     system's trust store). Not used for `ws://`.
    ///   - proxy: Whether to connect through a proxy (see ``ProxyTunnel``).
    package init(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, tlsConfiguration: TLSConfiguration? = nil,
        proxy: PusherClientConfiguration.ProxySetting = .direct
    ) {
        self.group = group
        self.tlsConfiguration = tlsConfiguration
        self.proxy = proxy
    }

    package func connect(
        to url: String, configuration: TransportConfiguration, handler: any TransportHandler
    ) async throws -> TransportClose? {
        let target = try WebSocketURL(parsing: url)
        let proxy = try PusherClientConfiguration.proxy(self.proxy, forHost: target.host)
        if let proxy, target.useTLS, target.isIPAddress {
            // Through a tunnel, NIOSSL would check an IP address's certificate against the address
            // it is connected to: the proxy's.
            throw PusherError(
                .tlsFailed,
                "wss:// to the IP address \(target.host) cannot be verified through the \(proxy.name): use the server's host name, or exempt it with NO_PROXY"
            )
        }
        try Task.checkCancellation()
        let eventLoop = self.group.next()
        let attempt = ConnectionAttempt()
        let sslContext =
            try target.useTLS ? Self.makeSSLContext(self.tlsConfiguration, host: target.host) : nil
        let connected = eventLoop.makePromise(of: (any Channel).self)
        let upgraded = eventLoop.makePromise(of: Void.self)
        let ended = eventLoop.makePromise(of: TransportClose?.self)
        let connection = NIOWebSocketConnection(
            attempt: attempt, budget: OutboundBudget(limit: configuration.outboundBufferLimit), connected: connected,
            upgraded: upgraded)
        handler.attemptStarted(connection)
        let maximumMessageSize = configuration.maximumMessageSize
        let bootstrap = ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                guard attempt.adopt(channel) else { return channel.eventLoop.makeFailedFuture(CancellationError()) }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let proxy {
                        // The tunnel first; TLS and the upgrade start once it is open.
                        try ProxyTunnel.addHandlers(
                            for: proxy, toHost: target.host, port: target.port, pipeline: pipeline,
                            eventLoop: channel.eventLoop, timeout: configuration.handshakeTimeout)
                    }
                    if let sslContext {
                        // No SNI for an IP address (TLS forbids it); NIOSSL then checks the
                        // certificate against the address connected to.
                        try pipeline.addHandler(
                            NIOSSLClientHandler(
                                context: sslContext, serverHostname: target.isIPAddress ? nil : target.host))
                        try pipeline.addHandler(TLSFailureHandler(host: target.host))
                    }
                    // NIO's frame encoder and decoder; no protocol error handler of NIO's:
                    // PusherFrameHandler answers broken frames itself (1009 for a frame over the limit).
                    let upgrader = PusherWebSocketUpgrader(maximumFrameSize: maximumMessageSize) { channel in
                        let frames = PusherFrameHandler(
                            handler: handler, ended: ended, maximumMessageSize: maximumMessageSize)
                        // Open before the first frame is handled (it may be in the same read as
                        // the upgrade's answer).
                        connection.opened(channel, handler: frames)
                        handler.opened()
                        try channel.pipeline.syncOperations.addHandler(frames)
                        upgraded.succeed()
                    }
                    let requestHandler = UpgradeRequestHandler(
                        url: target, headers: configuration.headers, upgraded: upgraded)
                    let boundRequestHandler = NIOLoopBound(requestHandler, eventLoop: channel.eventLoop)
                    try pipeline.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes,
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.syncOperations.removeHandler(boundRequestHandler.value, promise: nil)
                            }
                        )
                    )
                    try pipeline.addHandler(requestHandler)
                }
            }
        // NIO's futures ignore task cancellation: a cancelled task stops waiting for them at once
        // and drops the attempt's sockets, whichever phase (TCP, TLS, upgrade) it is in.
        let channel: any Channel
        do {
            channel = try await withTaskCancellationHandler {
                bootstrap.connect(host: proxy?.host ?? target.host, port: proxy?.port ?? target.port)
                    .cascade(to: connected)
                let channel: any Channel
                do {
                    channel = try await connected.futureResult.get()
                } catch let error as CancellationError {
                    throw error
                } catch {
                    // The TLS handler refuses some host names as it is created (within NIO's connection error).
                    let failures = (error as? NIOConnectionError)?.connectionErrors.map(\.error) ?? [error]
                    if let tlsFailure = failures.lazy.compactMap({ PusherError.tlsFailure($0, host: target.host) })
                        .first
                    {
                        throw tlsFailure
                    }
                    if let proxy, error is NIOConnectionError { throw ProxyTunnel.unreachable(proxy, error) }
                    throw error
                }
                try await upgraded.futureResult.get()
                return channel
            } onCancel: {
                connection.abort()
            }
        } catch {
            // Without an upgrade nothing else completes these promises (NIO reports leaked promises).
            upgraded.fail(error)
            ended.fail(error)
            attempt.drop()
            await attempt.closed()
            throw error
        }
        let close: TransportClose?
        do {
            close = try await withTaskCancellationHandler {
                try await ended.futureResult.get()
            } onCancel: {
                attempt.drop()
            }
        } catch {
            attempt.drop()
            await attempt.closed()
            throw connection.overflow ?? error
        }
        try? await channel.closeFuture.get()
        if let overflow = connection.overflow { throw overflow }
        return close
    }

    private static func makeSSLContext(_ configuration: TLSConfiguration?, host: String) throws(PusherError)
        -> NIOSSLContext
    {
        do {
            return try NIOSSLContext(configuration: configuration ?? .makeClientConfiguration())
        } catch {
            throw PusherError(.tlsFailed, "TLS for \(host) could not be set up (tlsConfiguration): \(error)")
        }
    }
}
