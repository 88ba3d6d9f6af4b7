// SPDX-License-Identifier: MIT

/// A validated Pusher channel name and what kind of channel it names.
package struct ChannelName: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case `public`
        case `private`
        case presence
        case privateEncrypted
    }

    package let rawValue: String
    package let kind: Kind

    /// Longest name Pusher accepts.
    package static let maximumLength = 164

    /// Validates `name`: 1–164 characters from `A–Z a–z 0–9 _ - = @ , . ;`; names starting with `#`
    /// are reserved.
    package init(validating name: String) throws(PusherError) {
        guard !name.isEmpty else { throw PusherError(.invalidChannelName, "channel name is empty") }
        guard name.utf8.count <= Self.maximumLength else {
            throw PusherError(
                .invalidChannelName, "channel name is longer than \(Self.maximumLength) characters", channel: name)
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
        self.rawValue = name
        self.kind = Self.kind(of: name)
    }

    /// Whether subscribing needs an authorization signature.
    package var requiresAuthorization: Bool {
        switch self.kind {
        case .private, .presence, .privateEncrypted: true
        case .public: false
        }
    }

    package var description: String { self.rawValue }

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
