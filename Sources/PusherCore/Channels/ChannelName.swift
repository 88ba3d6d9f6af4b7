// SPDX-License-Identifier: MIT

/// A validated Pusher channel name and what kind of channel it names.
public struct ChannelName: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case `public`
        case `private`
        case presence
        case privateEncrypted
        /// `#server-to-user-{id}`, subscribed by the client itself after sign-in.
        case serverToUser
    }

    public let rawValue: String
    public let kind: Kind
    /// Whether the name has a `cache-` part (`cache-`, `private-cache-`, `presence-cache-`,
    /// `private-encrypted-cache-`).
    public let isCache: Bool

    /// Longest name Pusher accepts.
    public static let maximumLength = 164

    /// Validates `name`: 1–164 characters from `A–Z a–z 0–9 _ - = @ , . ;`; names starting with `#`
    /// are reserved.
    public init(validating name: String) throws(PusherError) {
        guard !name.isEmpty else { throw PusherError(.invalidChannelName, "channel name is empty") }
        guard name.utf8.count <= Self.maximumLength else {
            throw PusherError(.invalidChannelName, "channel name is longer than \(Self.maximumLength) characters", channel: name)
        }
        if name.hasPrefix("#") {
            throw PusherError(.invalidChannelName, "names starting with '#' are reserved", channel: name)
        }
        for byte in name.utf8 where !Self.isAllowed(byte) {
            throw PusherError(
                .invalidChannelName,
                "channel name has a character Pusher does not allow: \(Character(Unicode.Scalar(byte)))",
                channel: name
            )
        }
        self.init(unchecked: name)
    }

    /// The server-to-user channel of a signed-in user.
    public static func serverToUser(userID: String) -> ChannelName {
        ChannelName(unchecked: "#server-to-user-\(userID)")
    }

    private init(unchecked name: String) {
        self.rawValue = name
        if name.hasPrefix("#server-to-user-") {
            (self.kind, self.isCache) = (.serverToUser, false)
        } else if name.hasPrefix("private-encrypted-") {
            (self.kind, self.isCache) = (.privateEncrypted, name.hasPrefix("private-encrypted-cache-"))
        } else if name.hasPrefix("private-") {
            (self.kind, self.isCache) = (.private, name.hasPrefix("private-cache-"))
        } else if name.hasPrefix("presence-") {
            (self.kind, self.isCache) = (.presence, name.hasPrefix("presence-cache-"))
        } else {
            (self.kind, self.isCache) = (.public, name.hasPrefix("cache-"))
        }
    }

    /// Whether subscribing needs an authorization signature.
    public var requiresAuthorization: Bool {
        switch self.kind {
        case .private, .presence, .privateEncrypted: true
        case .public, .serverToUser: false
        }
    }

    public var description: String { self.rawValue }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: ","),
            UInt8(ascii: "."), UInt8(ascii: ";"):
            true
        default:
            false
        }
    }
}
