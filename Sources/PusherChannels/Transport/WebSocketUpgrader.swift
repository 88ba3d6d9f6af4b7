// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The WebSocket upgrade of one connection. NIO's client upgrader makes the request key and checks
/// the server's answer; the pipeline after the upgrade is this one's: NIO's frame encoder for
/// what the client sends, and ``PusherFrameHandler``, which reads frames from the bytes itself
/// (no NIO frame decoder in front of it).
struct WebSocketUpgrader: NIOHTTPClientProtocolUpgrader, Sendable {
    private let checks: NIOWebSocketClientUpgrader
    private let mailbox: InboundMailbox
    private let outcome: ConnectionOutcomeBox
    private let maximumMessageSize: Int
    private let upgraded: EventLoopPromise<Void>

    init(
        mailbox: InboundMailbox, outcome: ConnectionOutcomeBox, maximumMessageSize: Int,
        upgraded: EventLoopPromise<Void>
    ) {
        // Its own pipeline set-up is not used (see `upgrade`).
        self.checks = NIOWebSocketClientUpgrader(maxFrameSize: maximumMessageSize, automaticErrorHandling: false) {
            channel, _ in channel.eventLoop.makeSucceededVoidFuture()
        }
        self.mailbox = mailbox
        self.outcome = outcome
        self.maximumMessageSize = maximumMessageSize
        self.upgraded = upgraded
    }

    var supportedProtocol: String { self.checks.supportedProtocol }
    var requiredUpgradeHeaders: [String] { self.checks.requiredUpgradeHeaders }

    func addCustom(upgradeRequestHeaders: inout HTTPHeaders) {
        self.checks.addCustom(upgradeRequestHeaders: &upgradeRequestHeaders)
    }

    func shouldAllowUpgrade(upgradeResponse: HTTPResponseHead) -> Bool {
        self.checks.shouldAllowUpgrade(upgradeResponse: upgradeResponse)
    }

    func upgrade(context: ChannelHandlerContext, upgradeResponse: HTTPResponseHead) -> EventLoopFuture<Void> {
        context.eventLoop.makeCompletedFuture {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(WebSocketFrameEncoder())
            try pipeline.addHandler(
                PusherFrameHandler(
                    mailbox: self.mailbox, outcome: self.outcome, maximumMessageSize: self.maximumMessageSize))
            self.upgraded.succeed()
        }
    }
}
