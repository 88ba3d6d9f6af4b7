// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket

/// Reads the socket's bytes into WebSocket frames with NIOWebSocket's `WebSocketFrameDecoder`,
/// driving the decoder itself instead of through NIO's generic `ByteToMessageHandler`.
///
/// The framing is NIO's: the decoder parses the headers, checks the size limit and the rules for
/// control frames, and passes each frame on. This handler only calls it until it needs more bytes,
/// and keeps the start of a frame that a read cut. Per frame, that leaves out most of what the
/// generic handler spends (its state machine, and a lookup of its type's metadata on every call).
///
/// A cut frame's bytes are copied into storage of this handler's own, and completed with a copy of
/// the next read's first bytes (the bridge); the rest of that read is decoded where it lies. So
/// NIO can read into its buffer again, and a read is not copied whole because a frame straddles it.
///
/// A broken frame is passed on as the error the decoder throws; nothing is read after it.
package final class WebSocketFrameReader: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = WebSocketFrame

    /// How many bytes of a read are copied to complete a cut frame before the whole read is.
    private static var bridgeLength: Int { 4096 }
    /// A cut frame's storage larger than this is not kept for less than half of it.
    private static var keptCapacity: Int { 1 << 16 }

    private let decoder: WebSocketFrameDecoder
    /// The bytes of a frame that the last read cut, in this handler's own storage.
    private var cut = ByteBuffer()
    /// Set while the decoder runs: a read that arrives meanwhile (re-entrantly, from a handler the
    /// decoder passed a frame to) waits here, and is decoded after the one being decoded.
    private var isDecoding = false
    private var reentrantReads: [ByteBuffer] = []
    /// Set after a broken frame, or once the channel is inactive: nothing more is decoded.
    private var isDone = false

    package init(maximumFrameSize: Int) {
        self.decoder = WebSocketFrameDecoder(maxFrameSize: maximumFrameSize)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.isDone else { return }
        let read = Self.unwrapInboundIn(data)
        guard !self.isDecoding else {
            self.reentrantReads.append(read)
            return
        }
        self.isDecoding = true
        defer { self.isDecoding = false }
        do {
            try self.decode(read, context: context)
            while !self.isDone, !self.reentrantReads.isEmpty {
                try self.decode(self.reentrantReads.removeFirst(), context: context)
            }
        } catch {
            self.isDone = true
            self.cut = ByteBuffer()
            self.reentrantReads = []
            context.fireErrorCaught(error)
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        // A frame cut by the end of the connection is incomplete: there is nothing more to decode.
        self.isDone = true
        self.cut = ByteBuffer()
        self.reentrantReads = []
        context.fireChannelInactive()
    }

    /// Decodes one read's bytes after what the last one left.
    private func decode(_ read: ByteBuffer, context: ChannelHandlerContext) throws {
        var read = read
        // Decoded from locals: a handler the decoder passes a frame to may make this one go
        // inactive (or read again) re-entrantly.
        var cut = ByteBuffer()
        swap(&cut, &self.cut)
        if cut.readableBytes > 0 {
            let cutLength = cut.readableBytes
            let cutStart = cut.readerIndex
            let bridge = min(read.readableBytes, Self.bridgeLength)
            cut.writeBytes(read.readableBytesView.prefix(bridge))
            try self.decodeFrames(in: &cut, context: context)
            guard !self.isDone else { return }
            let consumed = cut.readerIndex - cutStart
            if consumed >= cutLength {
                // The cut frame is complete. The decoder has taken the read's first
                // `consumed - cutLength` bytes (through the bridge) and goes on from there; what it
                // left of the bridge it reads again from the read.
                read.moveReaderIndex(forwardBy: consumed - cutLength)
            } else {
                // The cut frame is longer than the bridge: the rest of the read joins it.
                read.moveReaderIndex(forwardBy: bridge)
                cut.writeBuffer(&read)
                try self.decodeFrames(in: &cut, context: context)
                self.keep(cut)
                return
            }
        }
        try self.decodeFrames(in: &read, context: context)
        cut.clear()
        if read.readableBytes > 0 { cut.writeBuffer(&read) }
        self.keep(cut)
    }

    /// Calls the decoder until it needs more bytes; it passes each frame on as it completes it.
    private func decodeFrames(in buffer: inout ByteBuffer, context: ChannelHandlerContext) throws {
        while !self.isDone, try self.decoder.decode(context: context, buffer: &buffer) == .continue {}
    }

    /// Keeps what is left of a frame for the next read, in storage that is reused.
    private func keep(_ buffer: ByteBuffer) {
        guard !self.isDone else { return }
        var buffer = buffer
        if buffer.capacity > Self.keptCapacity && buffer.readableBytes <= buffer.capacity / 2 {
            // After a large frame: storage of the size of what is left.
            buffer = ByteBuffer(bytes: buffer.readableBytesView)
        } else if buffer.readableBytes == 0 {
            buffer.clear()
        } else if buffer.readerIndex > 0 {
            buffer.discardReadBytes()
        }
        self.cut = buffer
    }
}
