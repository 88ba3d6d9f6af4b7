// SPDX-License-Identifier: MIT

/// A Pusher channel name and what kind of channel it names: the engine's and its machines' one
/// type for a channel.
///
/// A cheap wrapper: it holds the name and nothing else, so it hashes, compares and copies like the
/// `String` it wraps, and its ``kind`` is read from the prefix when asked. Names from users are
/// checked once with ``init(validating:)``; names the client already accepted (those of received
/// messages, or of actions the engine returned) are wrapped with ``init(unchecked:)``, which costs
/// nothing on the per-event path.
package struct ChannelName: Sendable, Hashable, Comparable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case `public`
        case `private`
        case presence
        case privateEncrypted
    }

    package let rawValue: String

    /// Longest name Pusher accepts, in bytes (``PusherNameRules/maximumChannelNameBytes``).
    package static let maximumLength = PusherNameRules.maximumChannelNameBytes

    /// Validates `name` with ``PusherNameRules``: 1–164 bytes from `A–Z a–z 0–9 _ - = @ , . ;`;
    /// names starting with `#` are reserved.
    package init(validating name: String) throws(PusherError) {
        if let problem = PusherNameRules.channelNameProblem(name) {
            throw PusherError(.invalidChannelName, problem.reason, channel: name.isEmpty ? nil : name)
        }
        self.rawValue = name
    }

    /// Wraps `name` without checking it: for names the client already accepted, such as the channel
    /// of a received message (a look-up with it finds nothing unless the name was validated when
    /// subscribing).
    package init(unchecked name: String) {
        self.rawValue = name
    }

    /// The kind of channel, from the name's prefix.
    package var kind: Kind { Self.kind(of: self.rawValue) }

    /// Whether subscribing needs an authorization signature.
    package var requiresAuthorization: Bool {
        switch self.kind {
        case .private, .presence, .privateEncrypted: true
        case .public: false
        }
    }

    package var description: String { self.rawValue }

    /// In the order of their names.
    package static func < (lhs: ChannelName, rhs: ChannelName) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The kind of channel `name` names, from its prefix alone (no validation): for names the client
    /// already accepted, such as those of received events.
    package static func kind(of name: String) -> Kind {
        guard name.utf8.first == UInt8(ascii: "p") else { return .public }
        if name.hasPrefix("private-encrypted-") { return .privateEncrypted }
        if name.hasPrefix("private-") { return .private }
        if name.hasPrefix("presence-") { return .presence }
        return .public
    }

    /// Whether `name` is a private-encrypted channel.
    package static func isEncrypted(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: "p") && name.hasPrefix("private-encrypted-")
    }
}
