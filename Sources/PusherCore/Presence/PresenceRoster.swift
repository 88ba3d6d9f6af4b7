// SPDX-License-Identifier: MIT

/// The membership of one presence channel, rebuilt from scratch on every subscription.
///
/// Bounded by members and by bytes (ids and `user_info`, see
/// ``PresenceMember/approximateByteCount``): a server cannot make the client hold an unbounded roster.
package struct PresenceRoster: Sendable, Hashable {
    private var members: [String: PresenceMember] = [:]
    private var myID: String?
    /// Members kept at most.
    package let maximumMembers: Int
    /// Bytes of members kept at most.
    package let maximumBytes: Int
    /// The bytes of `members`.
    package private(set) var byteCount = 0

    package init(
        maximumMembers: Int = ClientDefaults.maximumPresenceMembers,
        maximumBytes: Int = ClientDefaults.maximumPresenceBytes
    ) {
        self.maximumMembers = max(1, maximumMembers)
        self.maximumBytes = max(1, maximumBytes)
    }

    package var count: Int { self.members.count }

    private var limitError: PusherError {
        PusherError(
            .limitExceeded,
            "the presence channel has more than \(self.maximumMembers) members (maximumPresenceMembers); the others are not tracked"
        )
    }

    private var byteLimitError: PusherError {
        PusherError(
            .limitExceeded,
            "the presence channel's members take more than \(self.maximumBytes) bytes (maximumPresenceBytes); the others are not tracked"
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
        var bytes = members.values.reduce(0) { $0 + $1.approximateByteCount }
        if members.count > self.maximumMembers || bytes > self.maximumBytes {
            // The lowest ids are kept, as many as both limits allow.
            var trimmed: [String: PresenceMember] = [:]
            trimmed.reserveCapacity(min(members.count, self.maximumMembers))
            bytes = 0
            for id in members.keys.sorted() {
                guard let member = members[id], trimmed.count < self.maximumMembers,
                    bytes + member.approximateByteCount <= self.maximumBytes
                else { break }
                trimmed[id] = member
                bytes += member.approximateByteCount
            }
            overflow = members.count > self.maximumMembers ? self.limitError : self.byteLimitError
            members = trimmed
        }
        self.members = members
        self.byteCount = bytes
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
        let replaced = self.members[id]
        guard self.members.count < self.maximumMembers || replaced != nil else { throw self.limitError }
        let bytes = self.byteCount - (replaced?.approximateByteCount ?? 0) + member.approximateByteCount
        guard bytes <= self.maximumBytes else { throw self.byteLimitError }
        self.members[id] = member
        self.byteCount = bytes
        return .added(member)
    }

    /// `pusher_internal:member_removed`: removes the member; an unknown id changes nothing (nil).
    package mutating func memberRemoved(_ data: JSONValue) throws(PusherError) -> PresenceChange? {
        guard let id = data["user_id"]?.idValue else {
            throw PusherError(.malformedMessage, "member_removed without a user_id")
        }
        guard let member = self.members.removeValue(forKey: id) else { return nil }
        self.byteCount -= member.approximateByteCount
        return .removed(member)
    }
}
