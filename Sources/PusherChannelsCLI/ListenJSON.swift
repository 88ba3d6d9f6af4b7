// SPDX-License-Identifier: MIT

import PusherChannels

/// The JSON lines `listen` prints.
enum ListenJSON {
    /// `{"channel","event","data","user_id"?}`, with `data` exactly as received.
    static func event(_ event: ChannelEvent) -> String {
        var line = #"{"channel":"# + JSONWriter.quoted(event.channel) + #","event":"# + JSONWriter.quoted(event.name)
        line += #","data":"# + JSONWriter.quoted(event.data)
        if let userID = event.userID { line += #","user_id":"# + JSONWriter.quoted(userID) }
        return line + "}"
    }

    /// `{"channel","presence":"snapshot"|"added"|"removed",…}`.
    static func presence(_ change: PresenceChange, on channel: String) -> String {
        func member(_ member: PresenceMember) -> String {
            var text = #""user_id":"# + JSONWriter.quoted(member.userID)
            if let info = member.userInfo { text += #","user_info":"# + info.jsonText }
            return text
        }
        let prefix = #"{"channel":"# + JSONWriter.quoted(channel)
        switch change {
        case .snapshot(let snapshot):
            let members = snapshot.members.map { "{" + member($0) + "}" }.joined(separator: ",")
            let me = snapshot.me.map { #","me":"# + JSONWriter.quoted($0.userID) } ?? ""
            return prefix + #","presence":"snapshot","members":["# + members + "]" + me + "}"
        case .added(let added):
            return prefix + #","presence":"added","# + member(added) + "}"
        case .removed(let removed):
            return prefix + #","presence":"removed","# + member(removed) + "}"
        }
    }

    /// `{"watchlist":"online"|"offline","user_id"}`.
    static func watchlist(_ event: WatchlistEvent) -> String {
        #"{"watchlist":"# + JSONWriter.quoted(event.status.rawValue) + #","user_id":"# + JSONWriter.quoted(event.userID)
            + "}"
    }
}
