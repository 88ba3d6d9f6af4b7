// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOWebSocket
import PusherChannels
import Testing

/// ``PusherWebSocketUpgrader``: NIO's handshake check, then the frame reader in place before the
/// first frame, even one that came in the same read as the server's answer.
@Suite("WebSocket upgrade", .timeLimit(.minutes(1)))
struct PusherWebSocketUpgraderTests {
    /// RFC 6455's example key and the accept value that answers it.
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    /// An embedded channel with the HTTP client handlers and the upgrader, the request sent; the
    /// recorder gets the frames once the upgrade added it.
    static func upgradingChannel() throws -> (EmbeddedChannel, WebSocketFrameReaderTests.Recorder, String) {
        let channel = EmbeddedChannel()
        let recorder = WebSocketFrameReaderTests.Recorder()
        let bound = NIOLoopBound(recorder, eventLoop: channel.eventLoop)
        let upgrader = PusherWebSocketUpgrader(requestKey: Self.key, maximumFrameSize: 1 << 16) { channel in
            try channel.pipeline.syncOperations.addHandler(bound.value)
        }
        try channel.pipeline.syncOperations.addHTTPClientHandlers(
            leftOverBytesStrategy: .forwardBytes,
            withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        )
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/app/key")
        head.headers.add(name: "Host", value: "localhost")
        try channel.writeOutbound(HTTPClientRequestPart.head(head))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        var request = ""
        while let part = try channel.readOutbound(as: ByteBuffer.self) { request += String(buffer: part) }
        return (channel, recorder, request)
    }

    static func answer(accept: String) -> String {
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
    }

    @Test("the request carries the key; frames in the same read as the answer reach the handlers behind the reader")
    func framesWithTheAnswer() throws {
        let (channel, recorder, request) = try Self.upgradingChannel()
        #expect(request.contains("Sec-WebSocket-Key: \(Self.key)"))
        #expect(request.contains("Sec-WebSocket-Version: 13"))
        let frames = WebSocketFrameReaderTests.frames([3, 200])
        var read = ByteBuffer(string: Self.answer(accept: Self.accept))
        var frameBytes = WebSocketFrameReaderTests.bytes(frames)
        read.writeBuffer(&frameBytes)
        try channel.writeInbound(read)
        channel.embeddedEventLoop.run()
        #expect(recorder.frames == frames)
        #expect(recorder.errors.isEmpty)
        // Later reads go through the same reader.
        let later = WebSocketFrameReaderTests.frames([7])
        try channel.writeInbound(WebSocketFrameReaderTests.bytes(later))
        #expect(recorder.frames == frames + later)
        #expect(throws: Never.self) {
            _ = try channel.pipeline.syncOperations.handler(type: WebSocketFrameReader.self)
        }
    }

    @Test("an answer with the wrong Sec-WebSocket-Accept is refused: no frame handler is added")
    func wrongAccept() throws {
        let (channel, recorder, _) = try Self.upgradingChannel()
        var read = ByteBuffer(string: Self.answer(accept: "AAAAAAAAAAAAAAAAAAAAAAAAAAA="))
        var frameBytes = WebSocketFrameReaderTests.bytes(WebSocketFrameReaderTests.frames([3]))
        read.writeBuffer(&frameBytes)
        #expect(throws: NIOHTTPClientUpgradeError.upgraderDeniedUpgrade) {
            try channel.writeInbound(read)
            channel.embeddedEventLoop.run()
            try channel.throwIfErrorCaught()
        }
        #expect(recorder.frames.isEmpty)
        #expect(throws: (any Error).self) {
            try channel.pipeline.syncOperations.handler(type: WebSocketFrameReader.self)
        }
    }
}
