// SPDX-License-Identifier: MIT

import NIOCore
import NIOEmbedded
import NIOWebSocket
import PusherChannels
import Testing

/// ``WebSocketFrameReader``: NIO's frame decoder driven directly, with frames cut by reads at any
/// byte, completed through the bridge or by the whole next read.
@Suite("WebSocket frame reader", .timeLimit(.minutes(1)))
struct WebSocketFrameReaderTests {
    /// Records the frames (opcode, fin, payload) and the errors that reach it.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var frames: [Frame] = []
        var errors: [any Error] = []
        var inactive = 0
        /// Called with each frame as it arrives (after it is recorded).
        var onFrame: ((ChannelHandlerContext, Int) -> Void)?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = Self.unwrapInboundIn(data)
            self.frames.append(
                Frame(opcode: frame.opcode, fin: frame.fin, payload: Array(frame.data.readableBytesView)))
            self.onFrame?(context, self.frames.count)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { self.errors.append(error) }
        func channelInactive(context: ChannelHandlerContext) { self.inactive += 1 }
    }

    struct Frame: Equatable {
        let opcode: WebSocketOpcode
        let fin: Bool
        let payload: [UInt8]
    }

    static func channel(maximumFrameSize: Int = 1 << 20) throws -> (EmbeddedChannel, Recorder) {
        let channel = EmbeddedChannel()
        let recorder = Recorder()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(maximumFrameSize: maximumFrameSize))
        try channel.pipeline.syncOperations.addHandler(recorder)
        return (channel, recorder)
    }

    /// The frames' bytes as a server sends them (7-, 16- or 64-bit lengths, unmasked).
    static func bytes(_ frames: [Frame]) -> ByteBuffer {
        var bytes = ByteBuffer()
        for frame in frames {
            let opcode: UInt8 = frame.opcode == .binary ? 0x2 : 0x1
            bytes.writeInteger((frame.fin ? 0x80 : 0) | opcode)
            switch frame.payload.count {
            case ..<126: bytes.writeInteger(UInt8(frame.payload.count))
            case ..<65536: bytes.writeMultipleIntegers(UInt8(126), UInt16(frame.payload.count))
            default: bytes.writeMultipleIntegers(UInt8(127), UInt64(frame.payload.count))
            }
            bytes.writeBytes(frame.payload)
        }
        return bytes
    }

    /// Text frames of the given payload lengths, each filled with a byte of its own.
    static func frames(_ lengths: [Int]) -> [Frame] {
        lengths.enumerated().map { index, length in
            Frame(opcode: .text, fin: true, payload: [UInt8](repeating: UInt8(65 + index % 26), count: length))
        }
    }

    /// Feeds `bytes` in reads cut at `cuts` (offsets, ascending).
    static func feed(_ bytes: ByteBuffer, cutAt cuts: [Int], to channel: EmbeddedChannel) throws {
        var start = 0
        for end in cuts.map({ min($0, bytes.readableBytes) }) + [bytes.readableBytes] where end > start {
            try channel.writeInbound(bytes.getSlice(at: start, length: end - start)!)
            start = end
        }
    }

    @Test(
        "frames cut by a read at every byte arrive whole, in order",
        arguments: [[0, 1, 125, 3, 126, 40], [200, 5000, 7]])
    func cutAnywhere(lengths: [Int]) throws {
        let frames = Self.frames(lengths)
        let bytes = Self.bytes(frames)
        for cut in 1..<bytes.readableBytes {
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: [cut], to: channel)
            #expect(recorder.frames == frames, "cut at \(cut)")
            #expect(recorder.errors.isEmpty)
        }
    }

    @Test("a frame longer than the bridge, cut in many reads, arrives whole; so do the frames around it")
    func longFrameAcrossReads() throws {
        let frames = Self.frames([10, 100_000, 3, 70_000, 0])
        let bytes = Self.bytes(frames)
        for step in [1000, 4095, 4096, 4097, 65536] {
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: Array(stride(from: 17, to: bytes.readableBytes, by: step)), to: channel)
            #expect(recorder.frames == frames, "reads of \(step) bytes")
        }
    }

    @Test("reads of random lengths over many frames of random lengths give back every frame")
    func randomCuts() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let frames = Self.frames((0..<60).map { _ in Int.random(in: 0...9000, using: &generator) })
            let bytes = Self.bytes(frames)
            var cuts: [Int] = []
            var offset = 0
            while offset < bytes.readableBytes {
                offset += Int.random(in: 1...20_000, using: &generator)
                cuts.append(offset)
            }
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: cuts, to: channel)
            #expect(recorder.frames == frames)
        }
    }

    @Test("a frame over the limit is refused from its header with the decoder's error; nothing after it is read")
    func tooLarge() throws {
        let (channel, recorder) = try Self.channel(maximumFrameSize: 1000)
        let frames = Self.frames([10, 1001, 10])
        try Self.feed(Self.bytes(frames), cutAt: [14], to: channel)
        #expect(recorder.frames == Array(frames.prefix(1)))
        #expect(recorder.errors.count == 1)
        #expect(recorder.errors.first as? NIOWebSocketError == .invalidFrameLength)
        try channel.writeInbound(Self.bytes(Self.frames([5])))
        #expect(recorder.frames.count == 1)
    }

    @Test("a read that arrives while a frame is being handled is decoded after the rest of the first")
    func reentrantRead() throws {
        let (channel, recorder) = try Self.channel()
        let first = Self.frames([5, 6, 7])
        let second = Self.frames([8, 9]).map { Frame(opcode: .binary, fin: true, payload: $0.payload) }
        let secondBytes = Self.bytes(second)
        recorder.onFrame = { context, count in
            if count == 1 { context.pipeline.fireChannelRead(secondBytes) }
        }
        try channel.writeInbound(Self.bytes(first))
        #expect(recorder.frames == first + second)
    }

    @Test("a handler that closes the channel on a frame stops the decoding; a cut frame is dropped")
    func inactiveWhileDecoding() throws {
        let (channel, recorder) = try Self.channel()
        _ = try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        recorder.onFrame = { context, count in
            if count == 2 { context.close(promise: nil) }
        }
        let frames = Self.frames([5, 6, 7, 8])
        let bytes = Self.bytes(frames)
        try? Self.feed(bytes, cutAt: [bytes.readableBytes - 3], to: channel)
        #expect(recorder.frames == Array(frames.prefix(2)))
        #expect(recorder.inactive == 1)
    }
}
