// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket
import PusherCore

/// The WebSocket end of the pipeline, on the event loop, behind NIO's frame decoder: assembles
/// messages from frames, decodes them (``InboundMessage``), answers pings and the close handshake,
/// and hands every message of one socket read to the client in one batch (at
/// `channelReadComplete`), straight into the client's engine on this thread: no hop between the
/// socket and the consumers' buffers. While a consumer is behind (the client answers false), it
/// reads no more until ``resumeReading()``: TCP then slows the server down (flow control).
///
/// It also keeps how the connection ends (the close frame, or the first error) and completes
/// ``ended`` with it when the channel goes inactive.
package final class PusherFrameHandler: ChannelDuplexHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias OutboundIn = WebSocketFrame
    package typealias OutboundOut = WebSocketFrame

    private let handler: any TransportHandler
    /// Completed when the channel goes inactive: with the close that ended the connection (the
    /// server's close frame, or the client's own when the server broke a limit), nil without one,
    /// or the first error.
    private let ended: EventLoopPromise<TransportClose?>
    private var closeFrame: TransportClose?
    private var error: (any Error)?
    /// Whether a close frame went out (only one does).
    private var closeSent = false
    private var isComplete = false
    private let maximumMessageSize: Int
    /// The messages of the socket read being handled.
    private var batch = InboundBatch()
    /// The data of the latest ping not answered yet because the socket took no more writes.
    private var pendingPong: ByteBuffer?
    /// A fragmented message being assembled, and whether it is text.
    private var fragments: ByteBuffer?
    private var fragmentsAreText = false
    /// Set once this handler closed the connection for a broken rule: nothing more is read.
    private var isFailed = false
    private var isReadingPaused = false
    private var isReadPending = false
    private var context: ChannelHandlerContext?

    package init(handler: any TransportHandler, ended: EventLoopPromise<TransportClose?>, maximumMessageSize: Int) {
        self.handler = handler
        self.ended = ended
        self.maximumMessageSize = maximumMessageSize
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.complete()
    }

    package func read(context: ChannelHandlerContext) {
        if self.isReadingPaused {
            self.isReadPending = true
        } else {
            context.read()
        }
    }

    /// Reads again after the client asked to pause; on the event loop.
    package func resumeReading() {
        guard self.isReadingPaused else { return }
        self.isReadingPaused = false
        self.handler.readingResumed()
        guard self.isReadPending, let context = self.context else { return }
        self.isReadPending = false
        context.read()
    }

    /// Sends a close frame with a normal closure, unless one went out already; on the event loop.
    package func startClose() {
        guard !self.closeSent, let context = self.context else { return }
        self.closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        context.writeAndFlush(self.wrapOutboundOut(frame), promise: nil)
    }

    /// Ends ``ended`` with how the connection ended (once).
    private func complete() {
        guard !self.isComplete else { return }
        self.isComplete = true
        if let closeFrame = self.closeFrame {
            self.ended.succeed(closeFrame)
        } else if let error = self.error {
            self.ended.fail(error)
        } else {
            self.ended.succeed(nil)
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.isFailed else { return }
        let frame = self.unwrapInboundIn(data)
        // The payload is a view into the read buffer, decoded where it lies; only a masked frame
        // (servers do not mask theirs) is unmasked, into a copy.
        var payload = frame.data
        if let maskKey = frame.maskKey { payload.webSocketUnmask(maskKey) }
        switch frame.opcode {
        case .text, .binary:
            guard self.fragments == nil else {
                return self.fail(context, .protocolError, "a new message began inside a fragmented one")
            }
            if frame.fin {
                self.append(payload, isText: frame.opcode == .text)
            } else {
                self.fragments = payload
                self.fragmentsAreText = frame.opcode == .text
            }
        case .continuation:
            guard var fragments = self.fragments else {
                return self.fail(context, .protocolError, "a continuation frame without a message")
            }
            guard fragments.readableBytes + payload.readableBytes <= self.maximumMessageSize else {
                return self.closeForMessageTooLarge(context)
            }
            fragments.writeBuffer(&payload)
            if frame.fin {
                self.fragments = nil
                self.append(fragments, isText: self.fragmentsAreText)
            } else {
                self.fragments = fragments
            }
        case .ping:
            self.answerPing(context, payload)
        case .pong:
            break
        case .connectionClose:
            let code = payload.readInteger(as: UInt16.self).map(Int.init) ?? 1005
            let reason = payload.readString(length: payload.readableBytes).flatMap { $0.isEmpty ? nil : $0 }
            if self.closeFrame == nil { self.closeFrame = TransportClose(code: code, reason: reason) }
            if !self.closeSent {
                self.closeSent = true
                // Echo the code, as the close handshake asks.
                var echo = context.channel.allocator.buffer(capacity: 2)
                echo.writeInteger(UInt16(code == 1005 ? 1000 : code))
                let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo)
                context.writeAndFlush(self.wrapOutboundOut(frame)).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            } else {
                context.close(promise: nil)
            }
        default:
            self.fail(context, .protocolError, "a frame with a reserved opcode")
        }
    }

    /// Answers a ping while the socket takes writes. Otherwise only the latest ping is answered
    /// once it does again (RFC 6455 allows this): a server's pings cannot grow the outbound buffer
    /// past its high-water mark by more than one pong.
    private func answerPing(_ context: ChannelHandlerContext, _ data: ByteBuffer) {
        guard context.channel.isWritable else {
            // A copy: the ping's data is a view into the read buffer, which it would keep alive.
            self.pendingPong = ByteBuffer(bytes: data.readableBytesView)
            return
        }
        let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: data)
        context.writeAndFlush(self.wrapOutboundOut(pong), promise: nil)
    }

    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, !self.isFailed, let data = self.pendingPong {
            self.pendingPong = nil
            self.answerPing(context, data)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Decodes a text message here, on the event loop, straight from the read buffer: no string of
    /// the whole frame is made, the client's thread gets the envelope ready to route, and the two
    /// threads share the work of a busy connection.
    private func append(_ buffer: ByteBuffer, isText: Bool) {
        self.batch.append(buffer, isText: isText)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        self.flush()
        context.fireChannelReadComplete()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        self.flush()
        self.complete()
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The frame decoder refuses a frame longer than `maximumMessageSize` from its header.
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            return self.closeForMessageTooLarge(context)
        }
        // Nothing after a broken frame is read (the decoder reads no more either).
        self.isFailed = true
        if self.error == nil { self.error = error }
        context.close(promise: nil)
    }

    private func flush() {
        guard !self.batch.messages.isEmpty else { return }
        if !self.handler.received(self.batch.messages) {
            self.isReadingPaused = true
        }
        self.batch.removeAll()
    }

    /// Closes the connection with 1009 because a message, in one frame or in fragments, is larger
    /// than the limit; the connection's outcome is that close (see ``TransportClose/messageTooLarge(limit:)``).
    private func closeForMessageTooLarge(_ context: ChannelHandlerContext) {
        self.fragments = nil
        if self.closeFrame == nil { self.closeFrame = .messageTooLarge(limit: self.maximumMessageSize) }
        self.sendClose(context, .messageTooLarge)
    }

    /// Closes the connection with `code` after a protocol violation, and remembers why.
    private func fail(_ context: ChannelHandlerContext, _ code: WebSocketErrorCode, _ message: String) {
        if self.error == nil { self.error = PusherError(.transportFailed, message) }
        self.sendClose(context, code)
    }

    /// Sends a close frame with `code` (unless one went out already), then closes the socket.
    private func sendClose(_ context: ChannelHandlerContext, _ code: WebSocketErrorCode) {
        self.isFailed = true
        guard !self.closeSent else { return context.close(promise: nil) }
        self.closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        context.writeAndFlush(self.wrapOutboundOut(frame)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
