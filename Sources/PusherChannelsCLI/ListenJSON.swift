// SPDX-License-Identifier: MIT

import PusherChannels

/// The JSON lines `listen` prints, made safe for a terminal (``TerminalText/escapedJSON(_:)``).
enum ListenJSON {
    /// `{"channel","event","data","user_id"?}`, with `data` as received (the same string once decoded).
    static func event(_ event: ChannelEvent) -> String {
        var line = #"{"channel":"# + JSONWriter.quoted(event.channel) + #","event":"# + JSONWriter.quoted(event.name)
        line += #","data":"# + JSONWriter.quoted(event.data)
        if let userID = event.userID { line += #","user_id":"# + JSONWriter.quoted(userID) }
        return TerminalText.escapedJSON(line + "}")
    }

    /// `{"channel","presence":"snapshot"|"added"|"removed",…}`.
    static func presence(_ change: PresenceChange, on channel: String) -> String {
        func member(_ member: PresenceMember) -> String {
            var text = #""user_id":"# + JSONWriter.quoted(member.userID)
            if let info = member.userInfo { text += #","user_info":"# + info.jsonText }
            return text
        }
        let prefix = #"{"channel":"# + JSONWriter.quoted(channel)
        let line: String
        switch change {
        case .snapshot(let snapshot):
            let members = snapshot.members.map { "{" + member($0) + "}" }.joined(separator: ",")
            let me = snapshot.me.map { #","me":"# + JSONWriter.quoted($0.userID) } ?? ""
            line = prefix + #","presence":"snapshot","members":["# + members + "]" + me + "}"
        case .added(let added):
            line = prefix + #","presence":"added","# + member(added) + "}"
        case .removed(let removed):
            line = prefix + #","presence":"removed","# + member(removed) + "}"
        }
        return TerminalText.escapedJSON(line)
    }

    /// `{"watchlist":"online"|"offline","user_id"}`.
    static func watchlist(_ event: WatchlistEvent) -> String {
        TerminalText.escapedJSON(
            #"{"watchlist":"# + JSONWriter.quoted(event.status.rawValue) + #","user_id":"#
                + JSONWriter.quoted(event.userID) + "}")
    }
}
