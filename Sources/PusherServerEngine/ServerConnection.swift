// SPDX-License-Identifier: MIT

/// One open connection as the server engine knows it. Dropped when the connection closes.
package struct ServerConnection: Sendable, Hashable {
    package let id: Int
    package let socketID: String
    package var subscriptions: Set<String> = []
    /// The user the connection signed in as (`pusher:signin`).
    package var userID: String?
    /// The signed-in user's watchlist.
    package var watchlist: [String] = []
    /// When the connection last sent anything (the engine's time).
    var lastActivity: Duration
    /// When the server pinged it and is waiting for an answer.
    var pingedAt: Duration?
    /// Whether the server has sent its close frame.
    package var closingByServer = false

    init(id: Int, socketID: String, now: Duration) {
        self.id = id
        self.socketID = socketID
        self.lastActivity = now
    }
}
