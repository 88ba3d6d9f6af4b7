// SPDX-License-Identifier: MIT

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
