// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket

/// Reads WebSocket frames straight from the socket's bytes, for ``PusherFrameHandler``: a
/// message's payload is a view into the read buffer, decoded where it lies, with no frame value
/// passed through the pipeline (and no dynamic cast) per message. The same checks as NIO's frame
/// decoder: the length limit as soon as a frame's length is known, control frames unfragmented
/// and at most 125 bytes.
struct WebSocketFrameReader {
    struct Frame {
        var fin: Bool
        var opcode: WebSocketOpcode
        /// The payload, unmasked.
        var data: ByteBuffer
    }

    /// The largest payload a frame may have.
    let maximumSize: Int
    /// Bytes read but not read as frames yet: the start of a frame that is not complete.
    private var buffer: ByteBuffer?

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// Adds the bytes of one socket read.
    mutating func append(_ bytes: inout ByteBuffer) {
        guard var buffer = self.buffer else {
            self.buffer = bytes
            return
        }
        self.buffer = nil
        buffer.discardReadBytes()
        buffer.writeBuffer(&bytes)
        self.buffer = buffer
    }

    /// The next complete frame, or nil until more bytes arrive.
    ///
    /// - Throws: `NIOWebSocketError.invalidFrameLength` for a frame longer than ``maximumSize``,
    ///   `.fragmentedControlFrame` or `.multiByteControlFrameLength` for a broken control frame.
    mutating func next() throws(NIOWebSocketError) -> Frame? {
        guard var buffer = self.buffer else { return nil }
        self.buffer = nil
        defer { self.buffer = buffer.readableBytes == 0 ? nil : buffer }
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self),
            let second = buffer.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }
        let opcode = WebSocketOpcode(encodedWebSocketOpcode: first & 0x0F)!
        let fin = first & 0x80 != 0
        var headerLength = 2
        let length: Int
        switch second & 0x7F {
        case 126:
            guard let word = buffer.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            length = Int(word)
            headerLength += 2
        case 127:
            guard let word = buffer.getInteger(at: start + 2, as: UInt64.self) else { return nil }
            guard word <= UInt64(Int.max) else { throw .invalidFrameLength }
            length = Int(word)
            headerLength += 8
        case let short:
            length = Int(short)
        }
        guard length <= self.maximumSize else { throw .invalidFrameLength }
        if opcode.isControlOpcode {
            guard fin else { throw .fragmentedControlFrame }
            guard length <= 125 else { throw .multiByteControlFrameLength }
        }
        var maskingKey: WebSocketMaskingKey?
        if second & 0x80 != 0 {
            guard let key = buffer.getBytes(at: start + headerLength, length: 4) else { return nil }
            maskingKey = WebSocketMaskingKey(key)
            headerLength += 4
        }
        guard buffer.readableBytes >= headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headerLength)
        var data = buffer.readSlice(length: length)!
        // Servers do not mask their frames; one that does gets them unmasked, as NIO's decoder does.
        if let maskingKey { data.webSocketUnmask(maskingKey) }
        return Frame(fin: fin, opcode: opcode, data: data)
    }
}
