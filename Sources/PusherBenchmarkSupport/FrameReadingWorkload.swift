// SPDX-License-Identifier: MIT

import NIOCore
import NIOEmbedded
import NIOWebSocket
import PusherChannels

/// What turning a socket's reads into WebSocket frames costs, for the `Engine` benchmarks in
/// `Benchmarks/`: server frames of about 100 bytes (unmasked text, as Pusher sends events), cut
/// into reads of 64 KiB as a socket delivers them (frames split across reads included), decoded by
/// the client's ``WebSocketFrameReader`` (NIO's frame decoder driven directly) or by NIO's generic
/// `ByteToMessageHandler(WebSocketFrameDecoder)`, into a handler that counts them. The client keeps
/// its reader, and the upgrader that installs it, only while this shows a gain.
public struct FrameReadingWorkload {
    /// How reads become frames.
    public enum Reader: String, Sendable, CaseIterable {
        /// ``WebSocketFrameReader``, as the client runs.
        case package
        /// NIO's `ByteToMessageHandler` around `WebSocketFrameDecoder`.
        case nio
    }

    /// Frames in one run.
    public let frames: Int
    private let reads: [ByteBuffer]

    /// A workload of `frames` frames in reads of `readBytes` bytes.
    public init(frames: Int = 100_000, readBytes: Int = 65_536) {
        self.frames = frames
        var all = ByteBuffer()
        for index in 0..<frames {
            let payload = #"{"event":"e","channel":"bench","data":"{\"sequence\":\#(index),\"price\":1234.5678}"}"#
            let bytes = Array(payload.utf8)
            all.writeInteger(UInt8(0x81))  // FIN, text
            if bytes.count < 126 {
                all.writeInteger(UInt8(bytes.count))
            } else {
                all.writeInteger(UInt8(126))
                all.writeInteger(UInt16(bytes.count))
            }
            all.writeBytes(bytes)
        }
        var reads: [ByteBuffer] = []
        while all.readableBytes > 0 {
            reads.append(all.readSlice(length: min(readBytes, all.readableBytes))!)
        }
        self.reads = reads
    }

    /// Decodes every read with `reader`; returns the number of frames decoded.
    public func run(_ reader: Reader) throws -> Int {
        let counter = Counter()
        let channel = EmbeddedChannel()
        switch reader {
        case .package:
            try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(maximumFrameSize: 1 << 20))
        case .nio:
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        }
        try channel.pipeline.syncOperations.addHandler(counter)
        for read in self.reads {
            channel.pipeline.fireChannelRead(read)
            channel.pipeline.fireChannelReadComplete()
        }
        _ = try? channel.finish()
        return counter.count
    }

    /// Counts the frames that reach the end of the pipeline.
    private final class Counter: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var count = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            self.count += 1
        }
    }
}
