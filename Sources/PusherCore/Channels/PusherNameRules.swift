// SPDX-License-Identifier: MIT

/// The one set of rules for channel names, event names and `socket_id`s, shared by the client, the
/// server side and the fake server, so that all three accept and refuse the same names.
///
/// - Channel names: 1–164 bytes (Pusher's documented limit) of `A–Z a–z 0–9 _ - = @ , . ;`; a name
///   starting with `#` is reserved, except `#server-to-user-ID` where the server side allows it.
/// - Event names: 1–200 bytes.
/// - `socket_id`: digits, a dot, digits; at most 64 bytes.
///
/// Lengths are counted in UTF-8 bytes, as servers count them.
package enum PusherNameRules {
    /// Longest channel name Pusher accepts, in bytes.
    package static let maximumChannelNameBytes = 164
    /// Longest event name Pusher accepts, in bytes.
    package static let maximumEventNameBytes = 200
    /// Longest `socket_id`, in bytes.
    package static let maximumSocketIDBytes = 64
    /// The prefix of the channels a server publishes to one user on, the only names that may hold `#`.
    package static let serverToUserPrefix = "#server-to-user-"

    /// Why a channel name is refused.
    package enum ChannelNameProblem: Sendable, Hashable {
        case empty
        /// Longer than the maximum (the name's byte count and the maximum).
        case tooLong(bytes: Int, maximum: Int)
        /// Starts with `#` without being an allowed `#server-to-user-ID` name.
        case reserved
        /// Holds a byte outside `A–Z a–z 0–9 _ - = @ , . ;`.
        case invalidCharacter(UInt8)

        /// The problem, for people.
        package var reason: String {
            switch self {
            case .empty: "channel name is empty"
            case .tooLong(let bytes, let maximum): "channel name is \(bytes) bytes, longer than \(maximum)"
            case .reserved: "names starting with '#' are reserved (except #server-to-user- ones on the server side)"
            case .invalidCharacter(let byte):
                byte < 0x80
                    ? "channel name has a character Pusher does not allow: \(Character(Unicode.Scalar(byte)))"
                    : "channel name has a character Pusher does not allow (only A-Z a-z 0-9 _ - = @ , . ;)"
            }
        }
    }

    /// What is wrong with `name` as a channel name, or `nil` when it is valid.
    ///
    /// - Parameters:
    ///   - name: The channel name.
    ///   - maximumBytes: The longest name allowed; `nil` leaves the length unchecked (self-hosted
    ///     servers with their own limit).
    ///   - allowsServerToUser: Whether `#server-to-user-ID` names are allowed (the server side and
    ///     the fake server's HTTP API publish on them; clients cannot subscribe to them directly).
    package static func channelNameProblem(
        _ name: String, maximumBytes: Int? = Self.maximumChannelNameBytes, allowsServerToUser: Bool = false
    ) -> ChannelNameProblem? {
        let bytes = name.utf8
        guard !bytes.isEmpty else { return .empty }
        var rest = Substring(name).utf8
        if bytes.first == UInt8(ascii: "#") {
            guard allowsServerToUser, bytes.starts(with: Self.serverToUserPrefix.utf8),
                bytes.count > Self.serverToUserPrefix.utf8.count
            else { return .reserved }
            rest = rest.dropFirst(Self.serverToUserPrefix.utf8.count)
        }
        if let byte = rest.first(where: { !Self.isChannelNameByte($0) }) { return .invalidCharacter(byte) }
        if let maximumBytes, bytes.count > maximumBytes { return .tooLong(bytes: bytes.count, maximum: maximumBytes) }
        return nil
    }

    /// Whether `name` is a valid channel name (at most ``maximumChannelNameBytes``).
    package static func isValidChannelName(_ name: String, allowsServerToUser: Bool = false) -> Bool {
        Self.channelNameProblem(name, allowsServerToUser: allowsServerToUser) == nil
    }

    /// Whether `name` is a valid event name: 1…`maximumBytes` bytes.
    package static func isValidEventName(_ name: String, maximumBytes: Int? = Self.maximumEventNameBytes) -> Bool {
        !name.isEmpty && (maximumBytes.map { name.utf8.count <= $0 } ?? true)
    }

    /// Whether `socketID` has the form the protocol gives it: digits, a dot, digits, at most
    /// ``maximumSocketIDBytes`` bytes.
    package static func isValidSocketID(_ socketID: String) -> Bool {
        let bytes = socketID.utf8
        guard bytes.count <= Self.maximumSocketIDBytes, let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            return false
        }
        let head = bytes[..<dot]
        let tail = bytes[bytes.index(after: dot)...]
        return !head.isEmpty && !tail.isEmpty && head.allSatisfy(Self.isDigit) && tail.allSatisfy(Self.isDigit)
    }

    /// A byte a channel name (or a user id of `#server-to-user-ID`) may hold:
    /// `A–Z a–z 0–9 _ - = @ , . ;`.
    package static func isChannelNameByte(_ byte: UInt8) -> Bool {
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
