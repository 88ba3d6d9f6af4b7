// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1

/// Closes a connection of `webhooks` whose request did not arrive whole (head and body) within
/// ``timeout``: counted from the connection's start, then from the end of each response (an idle
/// keep-alive connection is closed too). The time `webhooks` takes to answer is not counted.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        self.start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The request arrived whole: answering it is not the sender's time.
        if case .end = self.unwrapInboundIn(data) { self.stop() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The answer is out: the next request has its own deadline.
        if case .end = self.unwrapOutboundIn(data) { self.start(context: context) }
        context.write(data, promise: promise)
    }

    private func start(context: ChannelHandlerContext) {
        self.stop()
        let channel = context.channel
        self.deadline = context.eventLoop.scheduleTask(in: self.timeout) {
            channel.close(promise: nil)
        }
    }

    private func stop() {
        self.deadline?.cancel()
        self.deadline = nil
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
