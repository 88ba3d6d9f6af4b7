// SPDX-License-Identifier: MIT

import NIOCore
import PusherCore

/// The messages of one socket read, decoded as they are read, until ``PusherFrameHandler`` hands
/// them to the client at once. One value, so that adding a message is one access to the handler's
/// state, not one per field.
struct InboundBatch {
    private(set) var messages: [InboundMessage] = []
    /// Channel and event names of earlier messages, reused when they repeat (kept across batches).
    private var names = RecentNames()

    /// Decodes the message in `buffer` (a binary one is reported as such) and adds it.
    mutating func append(_ buffer: ByteBuffer, isText: Bool) {
        guard isText else { return self.messages.append(.binary) }
        let message = buffer.withUnsafeReadableBytes { bytes in InboundMessage(parsing: bytes, names: &self.names) }
        self.messages.append(message)
    }

    /// Empties the batch (its names stay, and its storage: the client keeps no reference to it).
    mutating func removeAll() {
        self.messages.removeAll(keepingCapacity: true)
    }
}
