// SPDX-License-Identifier: MIT

import PusherCore

// Channel membership: joining and leaving, presence rosters, subscription counts, the webhooks of
// both.
extension ServerEngine {
    /// The prefix of a user's own channel, `#server-to-user-ID`.
    package static let userChannelPrefix = "#server-to-user-"

    /// `cache-`, `private-cache-`, `private-encrypted-cache-` and `presence-cache-` channels.
    package static func isCacheChannel(_ channel: String) -> Bool {
        ["cache-", "private-cache-", "private-encrypted-cache-", "presence-cache-"].contains { channel.hasPrefix($0) }
    }

    /// Adds the connection to the channel's subscribers; the channel's first gets `channel_occupied`.
    mutating func join(_ channel: String, connection id: Int, into actions: inout [ServerAction]) {
        if self.subscribers[channel] == nil {
            actions.append(.webhook(["name": "channel_occupied", "channel": .string(channel)]))
        }
        self.subscribers[channel, default: []].insert(id)
        self.connections[id]?.subscriptions.insert(channel)
    }

    /// Removes the connection from the channel (and its roster); the last one out gets
    /// `channel_vacated`.
    mutating func leave(_ channel: String, connection id: Int, into actions: inout [ServerAction]) {
        self.connections[id]?.subscriptions.remove(channel)
        guard self.subscribers[channel]?.remove(id) != nil else { return }
        self.leavePresence(channel, connection: id, into: &actions)
        if self.subscribers[channel]?.isEmpty == true {
            self.subscribers[channel] = nil
            actions.append(.webhook(["name": "channel_vacated", "channel": .string(channel)]))
        } else {
            self.sendSubscriptionCount(of: channel, into: &actions)
        }
    }

    /// Adds `connection` as `userID` on a presence channel; tells the others if the user is new.
    /// Returns the subscription's presence payload.
    mutating func joinPresence(
        _ channel: String, userID: String, info: JSONValue?, connection id: Int, into actions: inout [ServerAction]
    ) -> String {
        var members = self.presence[channel] ?? [:]
        let isNew = members[userID] == nil
        members[userID, default: PresenceEntry(info: info, connections: [])].connections.insert(id)
        members[userID]?.info = info
        self.presence[channel] = members
        if isNew {
            actions.append(
                .webhook(["name": "member_added", "channel": .string(channel), "user_id": .string(userID)]))
            var added = #"{"user_id":"# + JSONWriter.quoted(userID)
            if let info { added += #","user_info":"# + info.jsonText }
            let others = self.subscribers[channel, default: []].filter { $0 != id }
            self.send(
                PusherMessage(event: PusherEventName.memberAdded, channel: channel, data: added + "}"),
                to: others.sorted(), into: &actions)
        }
        let ids = members.keys.sorted()
        let hash = JSONValue.object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value.info ?? .null) }))
        return #"{"presence":{"ids":"# + JSONValue.array(ids.map(JSONValue.string)).jsonText + #","hash":"#
            + hash.jsonText + #","count":\#(ids.count)}}"#
    }

    /// Removes `connection` from a presence channel; tells the others when the user's last connection
    /// left.
    private mutating func leavePresence(_ channel: String, connection id: Int, into actions: inout [ServerAction]) {
        guard var members = self.presence[channel] else { return }
        for (userID, member) in members where member.connections.contains(id) {
            members[userID]?.connections.remove(id)
            guard members[userID]?.connections.isEmpty == true else { continue }
            members[userID] = nil
            actions.append(
                .webhook(["name": "member_removed", "channel": .string(channel), "user_id": .string(userID)]))
            let others = self.subscribers[channel, default: []].filter { $0 != id }
            self.send(
                PusherMessage(
                    event: PusherEventName.memberRemoved, channel: channel,
                    data: #"{"user_id":"# + JSONWriter.quoted(userID) + "}"),
                to: others.sorted(), into: &actions)
        }
        self.presence[channel] = members.isEmpty ? nil : members
    }

    /// Tells every subscriber of `channel` how many connections are subscribed to it (not on
    /// presence channels, as on Pusher).
    mutating func sendSubscriptionCount(of channel: String, into actions: inout [ServerAction]) {
        guard self.settings.sendsSubscriptionCounts, ChannelName.kind(of: channel) != .presence,
            let subscribers = self.subscribers[channel]
        else { return }
        self.send(
            PusherMessage(
                event: PusherEventName.subscriptionCount, channel: channel,
                data: #"{"subscription_count":\#(subscribers.count)}"#),
            to: subscribers.sorted(), into: &actions)
    }

    /// Relays a client event to the channel's other subscribers (never back to the sender), with the
    /// sender's `user_id` on presence channels; refuses it on other channels, when not subscribed, or
    /// when its data is over ``ServerSettings/clientEventDataBytes``.
    mutating func relayClientEvent(
        _ message: PusherMessage, original: String, from id: Int, into actions: inout [ServerAction]
    ) {
        guard PusherNameRules.isValidEventName(message.event) else {
            self.refuse(
                id, "Client event rejected: the event name is over \(PusherNameRules.maximumEventNameBytes) bytes",
                into: &actions)
            return
        }
        guard let channel = message.channel, self.connections[id]?.subscriptions.contains(channel) == true,
            [.private, .presence].contains(ChannelName.kind(of: channel))
        else {
            self.refuse(id, "Client event rejected: not subscribed to a private or presence channel", into: &actions)
            return
        }
        let size = message.withDataBytes { $0.count } ?? 0
        guard size <= self.settings.clientEventDataBytes else {
            self.refuse(
                id,
                "Client event rejected: its data is \(size) bytes, over the limit of \(self.settings.clientEventDataBytes)",
                into: &actions)
            return
        }
        let userID = self.presence[channel]?.first { $0.value.connections.contains(id) }?.key
        let others = self.subscribers[channel, default: []].filter { $0 != id }
        if !others.isEmpty {
            actions.append(.send(Self.relayedText(message, userID: userID, original: original), to: others.sorted()))
        }
        var event: [String: JSONValue] = [
            "name": "client_event", "channel": .string(channel), "event": .string(message.event),
            "socket_id": .string(self.connections[id]?.socketID ?? ""),
        ]
        if let data = message.data { event["data"] = .string(data) }
        if let userID { event["user_id"] = .string(userID) }
        actions.append(.webhook(.object(event)))
    }

    /// A client event as the other members get it: `data` exactly as the sender wrote it (a JSON
    /// string stays that string, an object or another value keeps its exact text), plus `user_id`.
    static func relayedText(_ message: PusherMessage, userID: String?, original: String) -> String {
        let sentAsString: Bool = {
            guard case .object(let fields)? = try? JSONValue(parsing: original), let data = fields["data"] else {
                return true
            }
            if case .string = data { return true }
            return false
        }()
        guard !sentAsString, let data = message.data else {
            return PusherMessage(event: message.event, channel: message.channel, data: message.data, userID: userID)
                .serializedWithStringData
        }
        var output = #"{"event":"# + JSONWriter.quoted(message.event)
        if let channel = message.channel { output += #","channel":"# + JSONWriter.quoted(channel) }
        output += #","data":"# + data
        if let userID { output += #","user_id":"# + JSONWriter.quoted(userID) }
        return output + "}"
    }
}
