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
    /// Records the frames (opcode, fin, unmasked payload) and the errors that reach it.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        var frames: [Frame] = []
        var errors: [any Error] = []
        var inactive = 0
        /// Called with each frame as it arrives (after it is recorded).
        var onFrame: ((ChannelHandlerContext, Int) -> Void)?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = Self.unwrapInboundIn(data)
            let payload = Array(frame.unmaskedData.readableBytesView)
            self.frames.append(
                Frame(opcode: frame.opcode, fin: frame.fin, payload: payload, masked: frame.maskKey != nil))
            self.onFrame?(context, self.frames.count)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { self.errors.append(error) }
        func channelInactive(context: ChannelHandlerContext) { self.inactive += 1 }
    }

    struct Frame: Equatable {
        var opcode: WebSocketOpcode = .text
        var fin = true
        var payload: [UInt8]
        var masked = false
    }

    static func channel(maximumFrameSize: Int = 1 << 20) throws -> (EmbeddedChannel, Recorder) {
        let channel = EmbeddedChannel()
        let recorder = Recorder()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameReader(maximumFrameSize: maximumFrameSize))
        try channel.pipeline.syncOperations.addHandler(recorder)
        return (channel, recorder)
    }

    /// The frames' bytes (7-, 16- or 64-bit lengths; masked with a fixed key when `masked`).
    static func bytes(_ frames: [Frame]) -> ByteBuffer {
        var bytes = ByteBuffer()
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        for frame in frames {
            bytes.writeInteger((frame.fin ? 0x80 : 0) | UInt8(webSocketOpcode: frame.opcode))
            let mask: UInt8 = frame.masked ? 0x80 : 0
            switch frame.payload.count {
            case ..<126: bytes.writeInteger(mask | UInt8(frame.payload.count))
            case ..<65536: bytes.writeMultipleIntegers(mask | 126, UInt16(frame.payload.count))
            default: bytes.writeMultipleIntegers(mask | 127, UInt64(frame.payload.count))
            }
            if frame.masked {
                bytes.writeBytes(key)
                bytes.writeBytes(frame.payload.enumerated().map { $0.element ^ key[$0.offset % 4] })
            } else {
                bytes.writeBytes(frame.payload)
            }
        }
        return bytes
    }

    /// Text frames of the given payload lengths, each filled with a byte of its own.
    static func frames(_ lengths: [Int]) -> [Frame] {
        lengths.enumerated().map { index, length in
            Frame(payload: [UInt8](repeating: UInt8(65 + index % 26), count: length))
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

    /// Control frames, a fragmented message, masked frames and a 64-bit length among text frames.
    static let mixed: [Frame] = [
        Frame(payload: Array("first".utf8)),
        Frame(opcode: .ping, payload: [1, 2, 3, 4]),
        Frame(fin: false, payload: Array("frag".utf8)),
        Frame(opcode: .continuation, fin: false, payload: []),
        Frame(opcode: .continuation, payload: Array("ment".utf8)),
        Frame(opcode: .binary, payload: [UInt8](repeating: 7, count: 70_000)),
        Frame(payload: Array("masked".utf8), masked: true),
        Frame(opcode: .pong, payload: [], masked: true),
        Frame(payload: [UInt8](repeating: 9, count: 300), masked: true),
        Frame(opcode: .connectionClose, payload: [0x03, 0xE8]),
    ]

    @Test("control, fragmented, masked and 64-bit-length frames cut at any header byte arrive whole, in order")
    func mixedFramesCutAnywhere() throws {
        let bytes = Self.bytes(Self.mixed)
        // The long frame starts after the five frames before it (headers and payloads).
        let long = (2 + 5) + (2 + 4) + (2 + 4) + 2 + (2 + 4)
        // Every cut up to inside the long frame's payload, and every cut in the frames after it.
        let cuts = Array(1..<(long + 20)) + Array((bytes.readableBytes - 400)..<bytes.readableBytes)
        for cut in cuts {
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: [cut], to: channel)
            #expect(recorder.frames == Self.mixed, "cut at \(cut)")
            #expect(recorder.errors.isEmpty)
        }
        // Cut in two places: in the long frame's header (its 64-bit length from `long + 2` on),
        // then inside its payload.
        for first in (long + 1)..<(long + 10) {
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: [first, first + 5000], to: channel)
            #expect(recorder.frames == Self.mixed, "cuts at \(first) and \(first + 5000)")
            #expect(recorder.errors.isEmpty)
        }
    }

    @Test(
        "a cut frame that ends exactly at the bridge's end, one byte past it, and a bridge ending on a frame boundary")
    func bridgeBoundaries() throws {
        // Cut 8 bytes into a frame of 4 bytes of header and `payload` bytes: the bridge (the next
        // read's first 4096 bytes) holds the rest of it exactly (4100), or all of it but one byte.
        for payload in [4100, 4101] {
            let frames = Self.frames([payload, 20])
            let bytes = Self.bytes(frames)
            let (channel, recorder) = try Self.channel()
            try Self.feed(bytes, cutAt: [8], to: channel)
            #expect(recorder.frames == frames, "payload \(payload)")
        }
        // Cut 10 bytes into a frame of 52 bytes: the bridge ends exactly where the next frame does.
        let frames = Self.frames([50, 4096 - 42 - 4, 10])
        let (channel, recorder) = try Self.channel()
        try Self.feed(Self.bytes(frames), cutAt: [10], to: channel)
        #expect(recorder.frames == frames)
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

    /// A seeded generator (SplitMix64), so that a failing round can be run again.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var z = self.state
            z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z &>> 31)
        }
    }

    @Test("reads of random lengths over many frames of random lengths give back every frame")
    func randomCuts() throws {
        for seed in UInt64(1)...50 {
            var generator = SeededGenerator(state: seed)
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
            #expect(recorder.frames == frames, "seed \(seed)")
        }
    }

    @Test(
        "a frame over the limit is refused from its header with the decoder's error; nothing after it is read",
        arguments: [14, 15, 17]  // before its length, inside it (through the bridge), after it
    )
    func tooLarge(cut: Int) throws {
        let (channel, recorder) = try Self.channel(maximumFrameSize: 1000)
        let frames = Self.frames([10, 1001, 10])
        try Self.feed(Self.bytes(frames), cutAt: [cut], to: channel)
        #expect(recorder.frames == Array(frames.prefix(1)))
        #expect(recorder.errors.count == 1)
        #expect(recorder.errors.first as? NIOWebSocketError == .invalidFrameLength)
        try channel.writeInbound(Self.bytes(Self.frames([5])))
        #expect(recorder.frames.count == 1)
        #expect(recorder.errors.count == 1)
    }

    @Test("a read that arrives while a frame is being handled is decoded after the rest of the first")
    func reentrantRead() throws {
        let (channel, recorder) = try Self.channel()
        let first = Self.frames([5, 6, 7])
        let second = Self.frames([8, 9]).map { Frame(opcode: .binary, payload: $0.payload) }
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
        try Self.feed(bytes, cutAt: [bytes.readableBytes - 3], to: channel)
        #expect(recorder.frames == Array(frames.prefix(2)))
        #expect(recorder.inactive == 1)
        #expect(recorder.errors.isEmpty)
    }
}
