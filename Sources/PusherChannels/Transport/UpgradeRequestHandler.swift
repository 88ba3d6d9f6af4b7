// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1

/// Sends the WebSocket upgrade request once the connection is up, and fails `upgraded` when the
/// connection ends or errs before the upgrade completed (a refused upgrade arrives as an error from
/// NIO's upgrade handler).
final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let url: WebSocketURL
    private let upgraded: EventLoopPromise<Void>
    /// The application's headers (``PusherClientConfiguration/headers``), after `Host`.
    private let headers: [(name: String, value: String)]

    init(url: WebSocketURL, headers: [(name: String, value: String)] = [], upgraded: EventLoopPromise<Void>) {
        self.url = url
        self.headers = headers
        self.upgraded = upgraded
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: self.url.hostHeader)
        for header in self.headers { headers.add(name: header.name, value: header.value) }
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: self.url.target, headers: headers)
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A response that reaches this handler was not an upgrade.
        if case .head(let head) = self.unwrapInboundIn(data) {
            self.upgraded.fail(
                PusherError(.transportFailed, "the server refused the WebSocket upgrade: HTTP \(head.status.code)"))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.upgraded.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.upgraded.fail(PusherError(.transportFailed, "the connection closed before the WebSocket upgrade"))
        context.fireChannelInactive()
    }
}
