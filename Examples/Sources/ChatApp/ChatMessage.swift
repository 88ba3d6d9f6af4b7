// SPDX-License-Identifier: MIT

/// What a client posts to `POST /messages`.
struct ChatMessage: Decodable, Sendable {
    /// The channel to publish on, e.g. `presence-lobby` or `private-encrypted-support`.
    var channel: String
    var text: String
    /// The sender's Pusher connection, left out of the recipients (it shows its message already).
    var socketID: String?

    enum CodingKeys: String, CodingKey {
        case channel, text
        case socketID = "socket_id"
    }
}
