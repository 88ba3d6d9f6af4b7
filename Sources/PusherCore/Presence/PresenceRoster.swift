// SPDX-License-Identifier: MIT

/// The membership of one presence channel, rebuilt from scratch on every subscription.
package struct PresenceRoster: Sendable, Hashable {
    private var members: [String: PresenceMember] = [:]
    private var myID: String?

    package init() {}

    package var snapshot: PresenceSnapshot {
        let members = self.members.values.sorted { $0.userID < $1.userID }
        return PresenceSnapshot(members: members, me: self.myID.flatMap { self.members[$0] ?? PresenceMember(userID: $0) })
    }

    /// Replaces the membership with `pusher_internal:subscription_succeeded`'s
    /// `{"presence": {"ids", "hash", "count"}}`. `channelData` is this client's own `channel_data`.
    package mutating func reset(subscriptionData: JSONValue, channelData: String?) throws(PusherError) -> PresenceChange {
        guard let presence = subscriptionData["presence"] else {
            throw PusherError(.malformedMessage, "presence subscription without a \"presence\" object")
        }
        var members: [String: PresenceMember] = [:]
        if case .object(let hash)? = presence["hash"] {
            for (id, info) in hash { members[id] = PresenceMember(userID: id, userInfo: info == .null ? nil : info) }
        }
        if case .array(let ids)? = presence["ids"] {
            for id in ids.compactMap(\.idValue) where members[id] == nil { members[id] = PresenceMember(userID: id) }
        }
        self.members = members
        self.myID = channelData.flatMap { try? JSONValue(parsing: $0) }?["user_id"]?.idValue
        return .snapshot(self.snapshot)
    }

    /// `pusher_internal:member_added`: adds the member, or updates one already present (no double
    /// counting).
    package mutating func memberAdded(_ data: JSONValue) throws(PusherError) -> PresenceChange {
        guard let id = data["user_id"]?.idValue else { throw PusherError(.malformedMessage, "member_added without a user_id") }
        let info = data["user_info"]
        let member = PresenceMember(userID: id, userInfo: info == .null ? nil : info)
        self.members[id] = member
        return .added(member)
    }

    /// `pusher_internal:member_removed`: removes the member; an unknown id changes nothing (nil).
    package mutating func memberRemoved(_ data: JSONValue) throws(PusherError) -> PresenceChange? {
        guard let id = data["user_id"]?.idValue else { throw PusherError(.malformedMessage, "member_removed without a user_id") }
        return self.members.removeValue(forKey: id).map(PresenceChange.removed)
    }
}
