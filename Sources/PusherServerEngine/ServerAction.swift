// SPDX-License-Identifier: MIT

import PusherCore

/// What the server engine asks its driver to do. The engine does no I/O: the driver writes the
/// frames, closes the sockets, delivers the webhooks and writes the log lines, in order.
package enum ServerAction: Sendable, Hashable {
    /// Sends one text message to each of these connections (one text for all of them).
    case send(String, to: [Int])
    /// Closes a connection with a close frame carrying `code` and `reason`.
    case close(Int, code: Int, reason: String)
    /// Pings a silent connection: `pusher:ping`, and a WebSocket ping frame where there are frames.
    case ping(Int)
    /// Queues a webhook holding this one event (`{"name":"channel_occupied",…}`).
    case webhook(JSONValue)
    /// A line for the server's log.
    case log(ServerLogLevel, String)
}

/// How much a log line matters: `info` lines are on by default, `debug` ones (every frame) are not.
package enum ServerLogLevel: Int, Sendable, Hashable, Comparable {
    case debug = 0
    case info = 1
    case error = 2

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
