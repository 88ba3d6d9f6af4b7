// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// Where the fake server POSTs its webhooks, and the key and secret it signs them with.
    ///
    /// Each webhook carries `X-Pusher-Key: key` and `X-Pusher-Signature`, the lowercase hex
    /// HMAC-SHA256 of the raw body with `secret`, as Pusher sends them.
    public struct WebhookTarget: Sendable {
        /// The receiver's URL, e.g. `http://127.0.0.1:8080/pusher/webhooks`.
        public var url: String
        /// The app key sent as `X-Pusher-Key`.
        public var key: String
        /// The secret the body is signed with (`X-Pusher-Signature`).
        public var secret: String

        /// A webhook receiver.
        ///
        /// - Parameters:
        ///   - url: The receiver's URL (`http://` or `https://`).
        ///   - key: The key sent as `X-Pusher-Key`.
        ///   - secret: The secret the body is signed with.
        public init(url: String, key: String, secret: String) {
            self.url = url
            self.key = key
            self.secret = secret
        }
    }
}
