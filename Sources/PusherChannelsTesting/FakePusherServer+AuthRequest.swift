// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// One request to the auth endpoint (`POST /pusher/auth`).
    public struct AuthRequest: Sendable, Hashable {
        public var method: String
        /// Header names are lowercased.
        public var headers: [String: String]
        /// The decoded form fields (`socket_id`, `channel_name`, extra parameters).
        public var fields: [String: String]
        /// The body exactly as sent.
        public var body: String
    }
}
