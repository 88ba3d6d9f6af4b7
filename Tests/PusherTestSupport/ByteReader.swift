// SPDX-License-Identifier: MIT

import Foundation
import NIOCore

/// Reads a connection's bytes as a handshake needs them, keeping what is left over.
package struct ByteReader {
    package var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    package var pending = ByteBuffer()

    /// Exactly `count` bytes, or nil when the connection ended first.
    package mutating func bytes(_ count: Int) async throws -> [UInt8]? {
        while self.pending.readableBytes < count {
            guard var more = try await self.iterator.next() else { return nil }
            self.pending.writeBuffer(&more)
        }
        return self.pending.readBytes(length: count)
    }

    /// An HTTP head up to its blank line (without it), or nil when the connection ended first.
    package mutating func head() async throws -> String? {
        while true {
            let text = String(buffer: self.pending)
            if let end = text.range(of: "\r\n\r\n") {
                let head = String(text[..<end.lowerBound])
                self.pending.moveReaderIndex(forwardBy: text[..<end.upperBound].utf8.count)
                return head
            }
            guard var more = try await self.iterator.next() else { return nil }
            self.pending.writeBuffer(&more)
        }
    }
}
