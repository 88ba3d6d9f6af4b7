// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import PusherChannels
import PusherCore
import Testing

@Suite("WebSocket frame handler", .timeLimit(.minutes(1)))
struct PusherFrameHandlerTests {
    /// A handler behind the frame reader (NIO's frame decoder) in an embedded channel (as after the upgrade), with
    /// what it hands to the client and how the connection ended.
    struct Fixture {
        let channel: EmbeddedChannel
        /// What the handler hands to the client.
        let client = RecordingTransportHandler()
        let frames: PusherFrameHandler
        /// How the connection ended, once it has.
        private let outcome = NIOLockedValueBox<Result<TransportClose?, any Error>?>(nil)

        init(channel: EmbeddedChannel = EmbeddedChannel(), maximumMessageSize: Int = 1 << 20) throws {
            self.channel = channel
            let ended = channel.eventLoop.makePromise(of: TransportClose?.self)
            ended.futureResult.whenComplete { [outcome] result in outcome.withLockedValue { $0 = result } }
            self.frames = PusherFrameHandler(handler: self.client, ended: ended, maximumMessageSize: maximumMessageSize)
            let reader = WebSocketFrameReader(maximumFrameSize: maximumMessageSize)
            try self.channel.pipeline.syncOperations.addHandler(reader)
            try self.channel.pipeline.syncOperations.addHandler(self.frames)
            // Connected, so closing it is seen (isActive turns false, channelInactive fires).
            self.channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1), promise: nil)
        }

        /// Frames of one socket read, as a server sends them (unmasked): all their bytes in one
        /// buffer, then one read-complete.
        func read(_ frames: WebSocketFrame...) {
            var bytes = ByteBuffer()
            for frame in frames { PusherFrameHandlerTests.write(frame, to: &bytes) }
            self.read(bytes)
        }

        /// Bytes of one socket read (through the frame decoder), then one read-complete.
        func read(_ bytes: ByteBuffer) {
            self.channel.pipeline.fireChannelRead(bytes)
            self.channel.pipeline.fireChannelReadComplete()
        }

        /// The messages handed to the client since the last call; nil once the connection ended
        /// and nothing came.
        func take() -> [InboundMessage]? {
            let messages = self.client.take()
            return messages.isEmpty && self.isEnded ? nil : messages
        }

        var isEnded: Bool { self.outcome.withLockedValue { $0 != nil } }

        /// The close that ended the connection, once it ended with one.
        var closeFrame: TransportClose? {
            self.outcome.withLockedValue { outcome in
                if case .success(let close?) = outcome { close } else { nil }
            }
        }

        /// The error that ended the connection, once it ended with one.
        var error: (any Error)? {
            self.outcome.withLockedValue { outcome in
                if case .failure(let error) = outcome { error } else { nil }
            }
        }

        /// Frames the handler wrote. Their `data` is plain: the encoder masks it on the way out.
        func sent() throws -> [WebSocketFrame] {
            var frames: [WebSocketFrame] = []
            while let frame = try self.channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
            return frames
        }
    }

    /// Writes `frame` as a server sends it: header (7-, 16- or 64-bit length), no mask, payload.
    static func write(_ frame: WebSocketFrame, to bytes: inout ByteBuffer) {
        bytes.writeInteger((frame.fin ? 0x80 : 0) | UInt8(webSocketOpcode: frame.opcode))
        let length = frame.data.readableBytes
        switch length {
        case ..<126: bytes.writeInteger(UInt8(length))
        case ..<65536:
            bytes.writeInteger(UInt8(126))
            bytes.writeInteger(UInt16(length))
        default:
            bytes.writeInteger(UInt8(127))
            bytes.writeInteger(UInt64(length))
        }
        var data = frame.data
        bytes.writeBuffer(&data)
    }

    static func text(_ string: String, fin: Bool = true, opcode: WebSocketOpcode = .text) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: string))
    }

    static let event = #"{"event":"e","channel":"c","data":"1"}"#

    @Test("the messages of one read reach the client as one batch, already parsed; bad ones as typed errors")
    func oneBatchPerRead() async throws {
        let fixture = try Fixture()
        fixture.read(
            Self.text(Self.event), Self.text("not json"), WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer())
        )
        let batch = fixture.take() ?? []
        #expect(batch.count == 3)
        #expect(batch.first == .message(PusherMessage(event: "e", channel: "c", data: "1")))
        guard batch.count == 3, case .malformed(let error) = batch[1] else { return }
        #expect(error.code == .malformedMessage)
        #expect(batch[2] == .binary)
    }

    @Test("when the client answers a read with false, the socket is not read again until it resumes reading")
    func pausesReading() throws {
        let fixture = try Fixture()
        let reads = ReadCounter()
        try fixture.channel.pipeline.syncOperations.addHandler(reads, position: .first)
        fixture.read(Self.text(Self.event))
        fixture.channel.read()
        #expect(reads.count == 1, "the client reads on: so does the socket")
        fixture.client.setReadsOn(false)
        fixture.read(Self.text(Self.event), Self.text(Self.event))
        fixture.channel.read()
        #expect(reads.count == 1, "the client is behind: the read waits")
        #expect(fixture.take()?.count == 3, "what the read brought was handed over")
        #expect(fixture.client.resumedCount == 0)
        fixture.frames.resumeReading()
        #expect(reads.count == 2, "resuming made the waiting read")
        #expect(fixture.client.resumedCount == 1)
        fixture.frames.resumeReading()
        #expect(fixture.client.resumedCount == 1, "resuming a socket that reads changes nothing")
    }

    @Test("a fragmented message is assembled from its frames")
    func fragments() async throws {
        let fixture = try Fixture()
        let half = Self.event.index(Self.event.startIndex, offsetBy: 10)
        fixture.read(Self.text(String(Self.event[..<half]), fin: false))
        fixture.read(Self.text(String(Self.event[half...]), fin: true, opcode: .continuation))
        #expect(fixture.take() == [.message(PusherMessage(event: "e", channel: "c", data: "1"))])
    }

    /// What a connection closed for an oversized message shows: one close frame with 1009 sent,
    /// the socket closed, and the outcome a client close naming the limit (nothing delivered).
    func expectClosedAsTooLarge(_ fixture: Fixture, limit: Int) async throws {
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.connectionClose])
        var data = sent.first?.data ?? ByteBuffer()
        #expect(data.readWebSocketErrorCode() == .messageTooLarge)
        #expect(!fixture.channel.isActive)
        let close = try #require(fixture.closeFrame)
        #expect(close.code == 1009)
        #expect(close.exceededMessageSizeLimit == limit)
        #expect(close.reason == "a message is larger than \(limit) bytes (maximumMessageSize)")
        #expect(fixture.error == nil)
        #expect(fixture.take() == nil, "nothing reaches the client")
    }

    @Test("a fragmented message over the limit closes the connection with 1009, naming the limit")
    func tooLarge() async throws {
        let fixture = try Fixture(maximumMessageSize: 16)
        fixture.read(Self.text(String(repeating: "x", count: 10), fin: false))
        fixture.read(
            Self.text(String(repeating: "y", count: 10), fin: true, opcode: .continuation), Self.text(Self.event))
        try await self.expectClosedAsTooLarge(fixture, limit: 16)
    }

    @Test("a single frame over the limit is refused from its header and closes with 1009, naming the limit")
    func singleFrameTooLarge() async throws {
        let fixture = try Fixture(maximumMessageSize: 16)
        // The header of an unmasked text frame of 17 bytes, as a server sends it: its payload never comes.
        fixture.read(ByteBuffer(bytes: [0x81, 17]))
        try await self.expectClosedAsTooLarge(fixture, limit: 16)
    }

    @Test("a single frame at the limit passes")
    func singleFrameAtLimit() async throws {
        let fixture = try Fixture(maximumMessageSize: Self.event.utf8.count)
        var bytes = ByteBuffer(bytes: [0x81, UInt8(Self.event.utf8.count)])
        bytes.writeString(Self.event)
        fixture.read(bytes)
        #expect(fixture.take() == [.message(PusherMessage(event: "e", channel: "c", data: "1"))])
        #expect(try fixture.sent().isEmpty)
        #expect(fixture.closeFrame == nil)
    }

    @Test("frames split across reads anywhere (header, length, payload) are read whole, in order")
    func framesAcrossReads() async throws {
        let fixture = try Fixture()
        let long = #"{"event":"e","channel":"c","data":""# + String(repeating: "x", count: 300) + #""}"#
        var bytes = ByteBuffer()
        Self.write(Self.text(Self.event), to: &bytes)
        Self.write(Self.text(long), to: &bytes)
        Self.write(Self.text("not json"), to: &bytes)
        var cuts = [1, 2, 3, 45, 200]
        cuts.append(bytes.readableBytes)
        var start = 0
        for cut in cuts {
            fixture.read(bytes.getSlice(at: start, length: cut - start)!)
            start = cut
        }
        let batch = fixture.take() ?? []
        #expect(batch.count == 3)
        #expect(batch.first == .message(PusherMessage(event: "e", channel: "c", data: "1")))
        #expect(
            batch.dropFirst().first
                == .message(PusherMessage(event: "e", channel: "c", data: String(repeating: "x", count: 300))))
        guard batch.count == 3, case .malformed = batch[2] else { return }
    }

    @Test("a masked frame is unmasked; a fragmented or long control frame fails the connection")
    func maskedAndBrokenFrames() async throws {
        let fixture = try Fixture()
        let key: [UInt8] = [1, 2, 3, 4]
        var bytes = ByteBuffer(bytes: [0x81, 0x80 | UInt8(Self.event.utf8.count)] + key)
        bytes.writeBytes(Self.event.utf8.enumerated().map { $0.element ^ key[$0.offset % 4] })
        fixture.read(bytes)
        #expect(fixture.take() == [.message(PusherMessage(event: "e", channel: "c", data: "1"))])
        // A ping without FIN.
        fixture.read(ByteBuffer(bytes: [0x09, 0]))
        #expect(fixture.error as? NIOWebSocketError == .fragmentedControlFrame)
        #expect(!fixture.channel.isActive)
        let long = try Fixture()
        long.read(ByteBuffer(bytes: [0x89, 126, 0, 126]))
        #expect(long.error as? NIOWebSocketError == .multiByteControlFrameLength)
    }

    @Test("a ping is answered with a masked pong carrying its data")
    func pingPong() throws {
        let fixture = try Fixture()
        fixture.read(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "beat")))
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.pong])
        #expect(sent.first?.maskKey != nil)
        #expect(sent.first.map { String(buffer: $0.data) } == "beat")
    }

    @Test("while the socket takes no writes pings go unanswered; once it does, the latest is answered, once")
    func pongWaitsForWritability() throws {
        let fixture = try Fixture()
        fixture.channel.isWritable = false
        for beat in ["1", "2", "3"] {
            fixture.read(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: beat)))
        }
        #expect(try fixture.sent().isEmpty, "nothing is written to a socket over its high-water mark")
        fixture.channel.isWritable = true
        fixture.channel.pipeline.fireChannelWritabilityChanged()
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.pong])
        #expect(sent.first.map { String(buffer: $0.data) } == "3")
        fixture.channel.pipeline.fireChannelWritabilityChanged()
        #expect(try fixture.sent().isEmpty, "answered once")
    }

    @Test("the server's close frame is recorded and echoed once, then the connection closes")
    func serverClose() throws {
        let fixture = try Fixture()
        var data = ByteBuffer()
        data.writeInteger(UInt16(4200))
        data.writeString("reconnect")
        fixture.read(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
        #expect(fixture.closeFrame == TransportClose(code: 4200, reason: "reconnect"))
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.connectionClose])
        var echo = sent.first?.data ?? ByteBuffer()
        #expect(echo.readInteger(as: UInt16.self) == 4200)
        fixture.frames.startClose()
        #expect(try fixture.sent().isEmpty, "no second close frame goes out")
    }
}

/// Counts the reads that reach the socket.
private final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny
    private(set) var count = 0

    func read(context: ChannelHandlerContext) {
        self.count += 1
        context.read()
    }
}
