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

extension PresenceMember {
    /// About how many bytes the member keeps alive: its id, its `user_info`, and a fixed overhead.
    package var approximateByteCount: Int {
        32 + self.userID.utf8.count + (self.userInfo?.approximateByteCount ?? 0)
    }
}

extension PresenceMember {
    /// The `channel_data` string naming this member: `{"user_id":"…","user_info":…}`.
    public var channelData: String {
        var text = #"{"user_id":"# + JSONWriter.quoted(self.userID)
        if let userInfo = self.userInfo { text += #","user_info":"# + userInfo.jsonText }
        return text + "}"
    }
}
