// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import PusherCore

/// The last handler of a request through a proxy: sends the request once the connection (or the
/// tunnel, or TLS inside it) is active, collects the answer up to a limit, and completes `answer`
/// with its head and body. A connection that ends first, an error, or an answer over the limit
/// (`NIOTooManyBytesError`) fails it.
final class ProxiedAnswerCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let body: ByteBuffer
    private let limit: Int
    private let answer: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private var isSent = false
    private var head: HTTPResponseHead?
    private var received = ByteBuffer()

    init(
        request: HTTPRequestHead, body: ByteBuffer, limit: Int, answer: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    ) {
        self.request = request
        self.body = body
        self.limit = limit
        self.answer = answer
    }

    func channelActive(context: ChannelHandlerContext) {
        if !self.isSent {
            self.isSent = true
            context.write(self.wrapOutboundOut(.head(self.request)), promise: nil)
            if self.body.readableBytes > 0 {
                context.write(self.wrapOutboundOut(.body(.byteBuffer(self.body))), promise: nil)
            }
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head) where head.status.code >= 200 || head.status.code < 100:
            self.head = head
        case .head:
            break  // 1xx: the final answer follows.
        case .body(var bytes):
            guard self.received.readableBytes + bytes.readableBytes <= self.limit else {
                return self.fail(NIOTooManyBytesError(maxBytes: self.limit), context: context)
            }
            self.received.writeBuffer(&bytes)
        case .end:
            if let head = self.head {
                self.answer.succeed((head, self.received))
                context.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.answer.fail(Self.closedEarly)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.answer.fail(Self.closedEarly)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        self.answer.fail(error)
        context.close(promise: nil)
    }

    /// A connection that ended before the answer did (the promise ignores it once completed).
    private static let closedEarly = PusherError(.transportFailed, "the connection closed before the answer ended")
}
