// SPDX-License-Identifier: MIT

/// A change of a presence channel's membership.
public enum PresenceChange: Sendable, Hashable {
    /// The whole membership: first on every (re)subscription, replacing what was known before.
    case snapshot(PresenceSnapshot)
    /// A member joined, or (for an id already present) its info changed.
    case added(PresenceMember)
    case removed(PresenceMember)
}
