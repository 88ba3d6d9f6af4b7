// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The client's WebSocket upgrade: NIOWebSocket's upgrader makes the request's key and checks the
/// server's `Sec-WebSocket-Accept`; on success this one sets the pipeline up with NIO's frame
/// encoder, ``WebSocketFrameReader`` (NIO's frame decoder, driven directly), and whatever
/// `upgraded` adds after them.
package final class PusherWebSocketUpgrader: NIOHTTPClientProtocolUpgrader, Sendable {
    package let supportedProtocol = "websocket"
    package let requiredUpgradeHeaders: [String] = []

    /// Only its request key and its check of the answer are used; its own `upgrade` never runs.
    private let handshake: NIOWebSocketClientUpgrader
    private let maximumFrameSize: Int
    private let upgraded: @Sendable (any Channel) throws -> Void

    /// - Parameters:
    ///   - requestKey: The `Sec-WebSocket-Key` (random unless a test sets it).
    ///   - maximumFrameSize: The largest frame accepted from the server.
    ///   - upgraded: Called on the event loop once the frame handlers are in place, to add the
    ///     handlers behind them.
    package init(
        requestKey: String = NIOWebSocketClientUpgrader.randomRequestKey(), maximumFrameSize: Int,
        upgraded: @escaping @Sendable (any Channel) throws -> Void
    ) {
        self.handshake = NIOWebSocketClientUpgrader(
            requestKey: requestKey, maxFrameSize: maximumFrameSize, automaticErrorHandling: false
        ) { channel, _ in
            channel.eventLoop.makeSucceededVoidFuture()
        }
        self.maximumFrameSize = maximumFrameSize
        self.upgraded = upgraded
    }

    package func addCustom(upgradeRequestHeaders: inout HTTPHeaders) {
        self.handshake.addCustom(upgradeRequestHeaders: &upgradeRequestHeaders)
    }

    package func shouldAllowUpgrade(upgradeResponse: HTTPResponseHead) -> Bool {
        self.handshake.shouldAllowUpgrade(upgradeResponse: upgradeResponse)
    }

    package func upgrade(context: ChannelHandlerContext, upgradeResponse: HTTPResponseHead) -> EventLoopFuture<Void> {
        let channel = context.channel
        return channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(WebSocketFrameEncoder())
            try pipeline.addHandler(WebSocketFrameReader(maximumFrameSize: self.maximumFrameSize))
            try self.upgraded(channel)
        }
    }
}
