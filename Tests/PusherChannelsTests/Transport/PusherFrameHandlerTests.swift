// SPDX-License-Identifier: MIT

import NIOCore
import NIOEmbedded
import NIOWebSocket
import PusherChannels
import PusherCore
import Testing

@Suite("WebSocket frame handler", .timeLimit(.minutes(1)))
struct PusherFrameHandlerTests {
    /// A handler in an embedded channel, with what it hands to the client and how the connection ended.
    struct Fixture {
        let channel: EmbeddedChannel
        let mailbox: InboundMailbox
        let outcome = ConnectionOutcomeBox()

        init(
            channel: EmbeddedChannel = EmbeddedChannel(), maximumMessageSize: Int = 1 << 20,
            mailbox: InboundMailbox = InboundMailbox()
        ) throws {
            self.channel = channel
            self.mailbox = mailbox
            try self.channel.pipeline.syncOperations.addHandler(
                PusherFrameHandler(mailbox: self.mailbox, outcome: self.outcome, maximumMessageSize: maximumMessageSize)
            )
            // Connected, so closing it is seen (isActive turns false, channelInactive fires).
            self.channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1), promise: nil)
        }

        /// Frames of one socket read: all of them, then one read-complete.
        func read(_ frames: WebSocketFrame...) {
            for frame in frames { self.channel.pipeline.fireChannelRead(frame) }
            self.channel.pipeline.fireChannelReadComplete()
        }

        /// Frames the handler wrote. Their `data` is plain: the encoder masks it on the way out.
        func sent() throws -> [WebSocketFrame] {
            var frames: [WebSocketFrame] = []
            while let frame = try self.channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
            return frames
        }
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
        let batch = await fixture.mailbox.take() ?? []
        #expect(batch.count == 3)
        #expect(batch.first == .parsed(PusherMessage(event: "e", channel: "c", data: "1")))
        guard batch.count == 3, case .malformed(let error) = batch[1] else { return }
        #expect(error.code == .malformedMessage)
        #expect(batch[2] == .binary)
    }

    @Test(
        "a few large messages fill the mailbox's byte budget: the socket is not read again until the client takes them")
    func bytesPauseReading() async throws {
        let fixture = try Fixture(mailbox: InboundMailbox(byteLimit: 4096))
        let reads = ReadCounter()
        try fixture.channel.pipeline.syncOperations.addHandler(reads, position: .first)
        let large = #"{"event":"e","channel":"c","data":""# + String(repeating: "x", count: 1500) + #""}"#
        fixture.read(Self.text(large), Self.text(large))
        fixture.channel.read()
        #expect(reads.count == 1, "two messages, about 3 KiB: reading goes on")
        fixture.read(Self.text(large))
        fixture.channel.read()
        #expect(reads.count == 1, "three messages, over 4 KiB: the read waits")
        #expect(await fixture.mailbox.take()?.count == 3)
        fixture.channel.embeddedEventLoop.run()
        #expect(reads.count == 2, "taking them resumed the waiting read")
    }

    @Test("a fragmented message is assembled from its frames")
    func fragments() async throws {
        let fixture = try Fixture()
        let half = Self.event.index(Self.event.startIndex, offsetBy: 10)
        fixture.read(Self.text(String(Self.event[..<half]), fin: false))
        fixture.read(Self.text(String(Self.event[half...]), fin: true, opcode: .continuation))
        #expect(await fixture.mailbox.take() == [.parsed(PusherMessage(event: "e", channel: "c", data: "1"))])
    }

    /// What a connection closed for an oversized message shows: one close frame with 1009 sent,
    /// the socket closed, and the outcome a client close naming the limit (nothing delivered).
    func expectClosedAsTooLarge(_ fixture: Fixture, limit: Int) async throws {
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.connectionClose])
        var data = sent.first?.data ?? ByteBuffer()
        #expect(data.readWebSocketErrorCode() == .messageTooLarge)
        #expect(!fixture.channel.isActive)
        let close = try #require(fixture.outcome.closeFrame)
        #expect(close.code == 1009)
        #expect(close.exceededMessageSizeLimit == limit)
        #expect(close.reason == "a message is larger than \(limit) bytes (maximumMessageSize)")
        #expect(fixture.outcome.error == nil)
        #expect(await fixture.mailbox.take() == nil, "nothing reaches the client")
    }

    @Test("a fragmented message over the limit closes the connection with 1009, naming the limit")
    func tooLarge() async throws {
        let fixture = try Fixture(maximumMessageSize: 16)
        fixture.read(Self.text(String(repeating: "x", count: 10), fin: false))
        fixture.read(
            Self.text(String(repeating: "y", count: 10), fin: true, opcode: .continuation), Self.text(Self.event))
        try await self.expectClosedAsTooLarge(fixture, limit: 16)
    }

    @Test("a single frame over the limit (refused by the frame decoder) closes with 1009, naming the limit")
    func singleFrameTooLarge() async throws {
        let channel = EmbeddedChannel()
        let fixture = try Fixture(channel: channel, maximumMessageSize: 16)
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 16)), position: .first)
        // An unmasked text frame of 17 bytes, as a server sends it.
        var bytes = ByteBuffer(bytes: [0x81, 17])
        bytes.writeString(String(repeating: "z", count: 17))
        try channel.writeInbound(bytes)
        try await self.expectClosedAsTooLarge(fixture, limit: 16)
    }

    @Test("a single frame at the limit passes")
    func singleFrameAtLimit() async throws {
        let channel = EmbeddedChannel()
        let fixture = try Fixture(channel: channel, maximumMessageSize: Self.event.utf8.count)
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: Self.event.utf8.count)),
            position: .first
        )
        var bytes = ByteBuffer(bytes: [0x81, UInt8(Self.event.utf8.count)])
        bytes.writeString(Self.event)
        try channel.writeInbound(bytes)
        #expect(await fixture.mailbox.take() == [.parsed(PusherMessage(event: "e", channel: "c", data: "1"))])
        #expect(try fixture.sent().isEmpty)
        #expect(fixture.outcome.closeFrame == nil)
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
        #expect(fixture.outcome.closeFrame == TransportClose(code: 4200, reason: "reconnect"))
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.connectionClose])
        var echo = sent.first?.data ?? ByteBuffer()
        #expect(echo.readInteger(as: UInt16.self) == 4200)
        #expect(!fixture.outcome.startClose(), "no second close frame goes out")
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
