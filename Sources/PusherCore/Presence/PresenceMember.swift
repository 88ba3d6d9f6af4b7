// SPDX-License-Identifier: MIT

/// One member of a presence channel.
public struct PresenceMember: Sendable, Hashable {
    /// The member's id; numeric ids become their text (`10` → `"10"`).
    public var userID: String
    /// What the member's authorization put in `user_info`.
    public var userInfo: JSONValue?

    public init(userID: String, userInfo: JSONValue? = nil) {
        self.userID = userID
        self.userInfo = userInfo
    }
}
