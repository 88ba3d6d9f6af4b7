// SPDX-License-Identifier: MIT

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

    /// A compact `user_data` string: `{"id":…,"user_info":…,"watchlist":[…]}` (`user_info` and
    /// `watchlist` only when given). The one writer of `user_data` for the client and the server side.
    package static func userData(id: String, info: JSONValue?, watchlist: [String]) -> String {
        var text = #"{"id":"# + JSONWriter.quoted(id)
        if let info { text += #","user_info":"# + info.jsonText }
        if !watchlist.isEmpty {
            text += #","watchlist":["# + watchlist.map(JSONWriter.quoted).joined(separator: ",") + "]"
        }
        return text + "}"
    }
}
