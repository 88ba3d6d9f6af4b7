// SPDX-License-Identifier: MIT

import NIOCore

/// Sends outbound `ByteBuffer`s (whole WebSocket frames, already encoded) past the pipeline's
/// `WebSocketFrameEncoder`, which the WebSocket upgrader installs and which cannot be removed.
///
/// It sits after the encoder (towards the tail) and writes from the encoder's own context, so the
/// bytes go on to the socket untouched; flushes pass through the encoder as usual. Used by
/// ``PusherLoadServer``, whose frames are encoded once and sent many times.
final class FrameEncoderBypass: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var encoderContext: ChannelHandlerContext?

    init(encoderContext: ChannelHandlerContext) {
        self.encoderContext = encoderContext
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let encoderContext = self.encoderContext else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        encoderContext.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.encoderContext = nil
    }
}
