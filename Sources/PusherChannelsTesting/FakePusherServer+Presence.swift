// SPDX-License-Identifier: MIT

import PusherChannels

// Presence channel membership, and the subscribers of a channel.
extension FakePusherServer {
    /// Adds `connection` as `userID` on a presence channel; tells the others if the user is new.
    /// Returns the subscription's presence payload.
    func joinPresence(_ channel: String, userID: String, info: JSONValue?, connection: Int) -> String {
        var members = self.presence[channel] ?? [:]
        let isNew = members[userID] == nil
        members[userID, default: (info, [])].connections.insert(connection)
        members[userID]?.info = info
        self.presence[channel] = members
        if isNew {
            self.webhookMember(added: true, channel: channel, userID: userID)
            var added = #"{"user_id":"# + JSONWriter.quoted(userID)
            if let info { added += #","user_info":"# + info.jsonText }
            let message = PusherMessage(event: PusherEventName.memberAdded, channel: channel, data: added + "}")
            for other in self.subscribers(of: channel) where other != connection {
                self.sendText(self.encode(message), to: other)
            }
        }
        let ids = members.keys.sorted()
        let hash = JSONValue.object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.info ?? .null) }))
        return #"{"presence":{"ids":"# + JSONValue.array(ids.map(JSONValue.string)).jsonText + #","hash":"#
            + hash.jsonText
            + #","count":\#(ids.count)}}"#
    }

    /// Removes `connection` from a presence channel; tells the others when the user's last connection left.
    func leavePresence(_ channel: String, connection: Int) {
        guard var members = self.presence[channel] else { return }
        for (userID, member) in members where member.connections.contains(connection) {
            members[userID]?.connections.remove(connection)
            guard members[userID]?.connections.isEmpty == true else { continue }
            members[userID] = nil
            self.webhookMember(added: false, channel: channel, userID: userID)
            let message = PusherMessage(
                event: PusherEventName.memberRemoved, channel: channel,
                data: #"{"user_id":"# + JSONWriter.quoted(userID) + "}")
            for other in self.subscribers(of: channel) where other != connection {
                self.sendText(self.encode(message), to: other)
            }
        }
        self.presence[channel] = members
    }

    func subscribers(of channel: String) -> [Int] {
        self.order.filter {
            self.live[$0]?.connection.isOpen == true
                && self.live[$0]?.connection.subscriptions.contains(channel) == true
        }
    }
}
