// SPDX-License-Identifier: MIT

/// How a WebSocket ended with a close frame: the one the server sent or, when this client closed
/// the connection because the server broke a limit, the one the client sent.
package struct TransportClose: Sendable, Hashable {
    package var code: Int
    package var reason: String?
    /// Set when this client closed the connection with 1009 (message too big) because the server
    /// sent a message, in one frame or in fragments, larger than this many bytes
    /// (`maximumMessageSize`); `code` is then 1009 and `reason` says so. Nil for a close the
    /// server sent.
    package var exceededMessageSizeLimit: Int?

    package init(code: Int, reason: String?, exceededMessageSizeLimit: Int? = nil) {
        self.code = code
        self.reason = reason
        self.exceededMessageSizeLimit = exceededMessageSizeLimit
    }

    /// The close this client sends when a message is larger than `limit` bytes.
    package static func messageTooLarge(limit: Int) -> TransportClose {
        TransportClose(
            code: 1009,
            reason: "a message is larger than \(limit) bytes (maximumMessageSize)",
            exceededMessageSizeLimit: limit
        )
    }
}
