// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket

/// Refuses what a server must not accept from a WebSocket client, with the close code RFC 6455 gives:
/// an unmasked frame (§5.1: 1002), and fragments that cannot be joined (too many, too large: 1009;
/// out of order: 1002). One instance checks masks before `NIOWebSocketFrameAggregator`, another
/// after it answers the aggregator's errors.
final class ClientFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let checksMasks: Bool
    private var refused = false

    init(checksMasks: Bool) {
        self.checksMasks = checksMasks
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.refused else { return }
        let frame = Self.unwrapInboundIn(data)
        if self.checksMasks, frame.maskKey == nil {
            self.refuse(context: context, code: .protocolError, reason: "Unmasked frame from a client")
            return
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? NIOWebSocketFrameAggregator.Error else {
            context.fireErrorCaught(error)
            return
        }
        guard !self.refused else { return }
        switch error {
        case .accumulatedFrameSizeIsTooLarge, .tooManyFragments:
            self.refuse(context: context, code: .messageTooLarge, reason: "Fragmented message too large")
        default:
            self.refuse(context: context, code: .protocolError, reason: "Invalid fragments")
        }
    }

    private func refuse(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
        self.refused = true
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        context.writeAndFlush(
            Self.wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        context.close(promise: nil)
    }
}
