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

/// The members of a presence channel at one moment.
public struct PresenceSnapshot: Sendable, Hashable {
    /// Every member, ordered by id.
    public var members: [PresenceMember]
    /// This client, as its authorization's `channel_data` named it.
    public var me: PresenceMember?
    public var count: Int { self.members.count }

    public init(members: [PresenceMember], me: PresenceMember?) {
        self.members = members
        self.me = me
    }

    public func member(withID userID: String) -> PresenceMember? {
        self.members.first { $0.userID == userID }
    }
}

/// A change of a presence channel's membership.
public enum PresenceChange: Sendable, Hashable {
    /// The whole membership: first on every (re)subscription, replacing what was known before.
    case snapshot(PresenceSnapshot)
    /// A member joined, or (for an id already present) its info changed.
    case added(PresenceMember)
    case removed(PresenceMember)
}

/// The membership of one presence channel, rebuilt from scratch on every subscription.
public struct PresenceRoster: Sendable, Hashable {
    private var members: [String: PresenceMember] = [:]
    private var myID: String?

    public init() {}

    public var snapshot: PresenceSnapshot {
        let members = self.members.values.sorted { $0.userID < $1.userID }
        return PresenceSnapshot(members: members, me: self.myID.flatMap { self.members[$0] ?? PresenceMember(userID: $0) })
    }

    /// Replaces the membership with `pusher_internal:subscription_succeeded`'s
    /// `{"presence": {"ids", "hash", "count"}}`. `channelData` is this client's own `channel_data`.
    public mutating func reset(subscriptionData: JSONValue, channelData: String?) throws(PusherError) -> PresenceChange {
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
    public mutating func memberAdded(_ data: JSONValue) throws(PusherError) -> PresenceChange {
        guard let id = data["user_id"]?.idValue else { throw PusherError(.malformedMessage, "member_added without a user_id") }
        let info = data["user_info"]
        let member = PresenceMember(userID: id, userInfo: info == .null ? nil : info)
        self.members[id] = member
        return .added(member)
    }

    /// `pusher_internal:member_removed`: removes the member; an unknown id changes nothing (nil).
    public mutating func memberRemoved(_ data: JSONValue) throws(PusherError) -> PresenceChange? {
        guard let id = data["user_id"]?.idValue else { throw PusherError(.malformedMessage, "member_removed without a user_id") }
        return self.members.removeValue(forKey: id).map(PresenceChange.removed)
    }
}
