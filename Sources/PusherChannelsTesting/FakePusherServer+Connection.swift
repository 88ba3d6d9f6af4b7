// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// One client connection, as the server sees it.
    public struct Connection: Sendable, Identifiable {
        public let id: Int
        public let socketID: String
        /// The request path and query the client opened, e.g. `/app/key?protocol=7&client=…`.
        public let requestURI: String
        public var isOpen: Bool
        public var subscriptions: Set<String>
        public var received: [ReceivedMessage]
        /// The close code the client sent, if it closed the connection with a close frame.
        public var clientCloseCode: Int?
        /// The user id the connection signed in as (`pusher:signin`), if it did.
        public var userID: String?
        /// The signed-in user's watchlist.
        public var watchlist: [String] = []
    }
}
