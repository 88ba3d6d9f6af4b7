// SPDX-License-Identifier: MIT

import PusherCore

/// What user authentication gives the client: the `auth` signature of
/// `socket_id::user::user_data`, and `user_data`, sent byte for byte as given.
public struct UserAuthentication: Sendable, Hashable {
    public var auth: String
    /// A JSON object with a non-empty string `id`, and optionally `user_info` and `watchlist`.
    public var userData: String

    public init(auth: String, userData: String) {
        self.auth = auth
        self.userData = userData
    }
}
