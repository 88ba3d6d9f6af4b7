// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// How the auth endpoint answers.
    public enum AuthEndpointBehavior: Sendable, Hashable {
        /// Sign with the app secret, as a well-behaved backend does (presence channels get
        /// `{"user_id":"user-<socket id>"}` as channel_data).
        case sign
        /// Answer with this status and body.
        case respond(status: Int, body: String)
    }
}
