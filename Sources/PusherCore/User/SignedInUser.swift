// SPDX-License-Identifier: MIT

/// The user the server confirmed with `pusher:signin_success`.
public struct SignedInUser: Sendable, Hashable {
    /// The `id` of `user_data`.
    public var id: String
    /// The `user_info` of `user_data`, if any.
    public var info: JSONValue?
    /// The `user_data` string exactly as the server confirmed it.
    public var userData: String

    public init(id: String, info: JSONValue?, userData: String) {
        self.id = id
        self.info = info
        self.userData = userData
    }

    /// Reads `user_data`: a JSON object with a non-empty string `id`.
    package init(userData: String) throws(PusherError) {
        guard let value = try? JSONValue(parsing: userData), case .object = value else {
            throw PusherError(.signInFailed, "user_data is not a JSON object")
        }
        guard let id = value["id"]?.stringValue, !id.isEmpty else {
            throw PusherError(.signInFailed, "user_data has no non-empty string \"id\"")
        }
        self.init(id: id, info: value["user_info"], userData: userData)
    }

    /// The channel the server sends this user's events on.
    package var serverToUserChannel: String { "#server-to-user-\(self.id)" }
}
