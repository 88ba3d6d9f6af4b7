// SPDX-License-Identifier: MIT

extension PresenceMember {
    /// The `channel_data` string naming this member: `{"user_id":"…","user_info":…}`.
    public var channelData: String {
        var text = #"{"user_id":"# + JSONWriter.quoted(self.userID)
        if let userInfo = self.userInfo { text += #","user_info":"# + userInfo.jsonText }
        return text + "}"
    }
}
