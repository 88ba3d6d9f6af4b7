// SPDX-License-Identifier: MIT

/// The user a client signs in as (``PusherServer/authenticateUser(socketID:user:)``), written as the
/// `user_data` JSON `{"id":…,"user_info":…,"watchlist":[…]}`.
public struct PusherUser: Sendable, Hashable {
    /// The user's id: not empty. Events your server sends to this id (`sendToUser`) reach the
    /// connections signed in with it.
    public var id: String
    /// Anything about the user that the other users watching them may see (`user_info`).
    public var info: JSONValue?
    /// The ids of the users whose coming online and going offline this user is told about (at most
    /// 100 on Pusher).
    public var watchlist: [String]

    /// A user.
    ///
    /// - Parameters:
    ///   - id: The user's id; an empty id is refused when signing.
    ///   - info: The `user_info`, if any.
    ///   - watchlist: The ids of the users to watch.
    public init(id: String, info: JSONValue? = nil, watchlist: [String] = []) {
        self.id = id
        self.info = info
        self.watchlist = watchlist
    }

    /// The compact `user_data` string for this user.
    public var userData: String {
        UserAuthentication.userData(id: self.id, info: self.info, watchlist: self.watchlist)
    }
}
