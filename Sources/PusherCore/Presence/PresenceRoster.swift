// SPDX-License-Identifier: MIT

/// The membership of one presence channel, rebuilt from scratch on every subscription.
package struct PresenceRoster: Sendable, Hashable {
    private var members: [String: PresenceMember] = [:]
    private var myID: String?
    /// Members kept at most: a server cannot make the client hold an unbounded roster.
    package let maximumMembers: Int

    package init(maximumMembers: Int = 10_000) {
        self.maximumMembers = max(1, maximumMembers)
    }

    package var count: Int { self.members.count }

    private var limitError: PusherError {
        PusherError(
            .limitExceeded,
            "the presence channel has more than \(self.maximumMembers) members (maximumPresenceMembers); the others are not tracked"
        )
    }

    package var snapshot: PresenceSnapshot {
        let members = self.members.values.sorted { $0.userID < $1.userID }
        return PresenceSnapshot(
            members: members, me: self.myID.flatMap { self.members[$0] ?? PresenceMember(userID: $0) })
    }

    /// Replaces the membership with `pusher_internal:subscription_succeeded`'s
    /// `{"presence": {"ids", "hash", "count"}}`. `channelData` is this client's own `channel_data`.
    /// Beyond ``maximumMembers``, members are left out (the lowest ids are kept) and `overflow` is
    /// the `limitExceeded` error to report.
    package mutating func reset(
        subscriptionData: JSONValue,
        channelData: String?
    ) throws(PusherError) -> (change: PresenceChange, overflow: PusherError?) {
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
        self.myID = channelData.flatMap { try? JSONValue(parsing: $0) }?["user_id"]?.idValue
        var overflow: PusherError?
        if members.count > self.maximumMembers {
            let kept = members.keys.sorted().prefix(self.maximumMembers)
            var trimmed: [String: PresenceMember] = [:]
            trimmed.reserveCapacity(kept.count)
            for id in kept { trimmed[id] = members[id] }
            members = trimmed
            overflow = self.limitError
        }
        self.members = members
        return (.snapshot(self.snapshot), overflow)
    }

    /// `pusher_internal:member_added`: adds the member, or updates one already present (no double
    /// counting).
    package mutating func memberAdded(_ data: JSONValue) throws(PusherError) -> PresenceChange {
        guard let id = data["user_id"]?.idValue else {
            throw PusherError(.malformedMessage, "member_added without a user_id")
        }
        let info = data["user_info"]
        let member = PresenceMember(userID: id, userInfo: info == .null ? nil : info)
        guard self.members.count < self.maximumMembers || self.members[id] != nil else { throw self.limitError }
        self.members[id] = member
        return .added(member)
    }

    /// `pusher_internal:member_removed`: removes the member; an unknown id changes nothing (nil).
    package mutating func memberRemoved(_ data: JSONValue) throws(PusherError) -> PresenceChange? {
        guard let id = data["user_id"]?.idValue else {
            throw PusherError(.malformedMessage, "member_removed without a user_id")
        }
        return self.members.removeValue(forKey: id).map(PresenceChange.removed)
    }
}
