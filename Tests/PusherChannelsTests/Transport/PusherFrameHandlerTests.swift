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
        let mailbox = InboundMailbox()
        let outcome = ConnectionOutcomeBox()

        init(maximumMessageSize: Int = 1 << 20) throws {
            self.channel = EmbeddedChannel()
            try self.channel.pipeline.syncOperations.addHandler(
                PusherFrameHandler(mailbox: self.mailbox, outcome: self.outcome, maximumMessageSize: maximumMessageSize)
            )
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
        fixture.read(Self.text(Self.event), Self.text("not json"), WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer()))
        let batch = await fixture.mailbox.take() ?? []
        #expect(batch.count == 3)
        #expect(batch.first == .parsed(PusherMessage(event: "e", channel: "c", data: "1")))
        guard batch.count == 3, case .malformed(let error) = batch[1] else { return }
        #expect(error.code == .malformedMessage)
        #expect(batch[2] == .binary)
    }

    @Test("a fragmented message is assembled from its frames")
    func fragments() async throws {
        let fixture = try Fixture()
        let half = Self.event.index(Self.event.startIndex, offsetBy: 10)
        fixture.read(Self.text(String(Self.event[..<half]), fin: false))
        fixture.read(Self.text(String(Self.event[half...]), fin: true, opcode: .continuation))
        #expect(await fixture.mailbox.take() == [.parsed(PusherMessage(event: "e", channel: "c", data: "1"))])
    }

    @Test("a fragmented message over the limit closes the connection with 1009 and says why")
    func tooLarge() throws {
        let fixture = try Fixture(maximumMessageSize: 16)
        fixture.read(Self.text(String(repeating: "x", count: 10), fin: false))
        fixture.read(Self.text(String(repeating: "y", count: 10), fin: true, opcode: .continuation))
        let sent = try fixture.sent()
        #expect(sent.map(\.opcode) == [.connectionClose])
        var data = sent.first?.data ?? ByteBuffer()
        #expect(data.readWebSocketErrorCode() == .messageTooLarge)
        #expect((fixture.outcome.error as? PusherError)?.message.contains("larger than 16 bytes") == true)
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
