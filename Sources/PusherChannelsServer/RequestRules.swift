// SPDX-License-Identifier: MIT

/// The checks every call makes before it builds a request: names, `socket_id`s and limits.
enum RequestRules {
    /// The prefix of the channels `sendToUser` publishes on, the only names that may hold `#`.
    static let serverToUserPrefix = "#server-to-user-"
    static let encryptedPrefix = "private-encrypted-"

    /// Checks a channel name: 1…`limits.channelNameLength` characters from `A-Z a-z 0-9 _ - = @ , . ;`,
    /// or a `#server-to-user-` name when `allowsServerToUser`.
    static func checkChannel(
        _ name: String, limits: PusherServerConfiguration.Limits, allowsServerToUser: Bool = true
    ) throws(PusherServerError) {
        guard !name.isEmpty else { throw PusherServerError(.invalidArgument, "a channel name is empty") }
        var rest = Substring(name)
        if name.hasPrefix("#") {
            guard allowsServerToUser, name.hasPrefix(Self.serverToUserPrefix),
                name.utf8.count > Self.serverToUserPrefix.utf8.count
            else {
                throw PusherServerError(
                    .invalidArgument, "the channel name \(name) starts with '#', which only #server-to-user- names may")
            }
            rest = rest.dropFirst(Self.serverToUserPrefix.utf8.count)
        }
        guard rest.utf8.allSatisfy(Self.isChannelNameByte) else {
            throw PusherServerError(
                .invalidArgument,
                "the channel name \(name) has a character other than A-Z a-z 0-9 _ - = @ , . ;")
        }
        if let maximum = limits.channelNameLength, name.utf8.count > maximum {
            throw PusherServerError(
                .limitExceeded, "the channel name \(name) is \(name.utf8.count) characters, more than \(maximum)")
        }
    }

    /// Checks an event name: not empty, at most `limits.eventNameLength` characters.
    static func checkEvent(_ name: String, limits: PusherServerConfiguration.Limits) throws(PusherServerError) {
        guard !name.isEmpty else { throw PusherServerError(.invalidArgument, "the event name is empty") }
        if let maximum = limits.eventNameLength, name.count > maximum {
            throw PusherServerError(.limitExceeded, "the event name is \(name.count) characters, more than \(maximum)")
        }
    }

    /// Checks a `socket_id`: digits, a dot, digits.
    static func checkSocketID(_ socketID: String) throws(PusherServerError) {
        let parts = socketID.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } })
        else {
            throw PusherServerError(.invalidArgument, "the socket id \(socketID) is not digits.digits")
        }
    }

    /// Checks the size of an event's data as sent.
    static func checkData(_ data: String, limits: PusherServerConfiguration.Limits) throws(PusherServerError) {
        if let maximum = limits.dataBytes, data.utf8.count > maximum {
            throw PusherServerError(
                .limitExceeded, "the event data is \(data.utf8.count) bytes as sent, more than \(maximum)")
        }
    }

    /// Checks a user id for `#server-to-user-ID` and `/users/ID/…`: the characters of channel names.
    static func checkUserID(_ userID: String) throws(PusherServerError) {
        guard !userID.isEmpty, userID.utf8.allSatisfy(Self.isChannelNameByte) else {
            throw PusherServerError(
                .invalidArgument,
                "the user id \(userID) is empty or has a character other than A-Z a-z 0-9 _ - = @ , . ;")
        }
    }

    static func isEncrypted(_ channel: String) -> Bool { channel.hasPrefix(Self.encryptedPrefix) }

    static func isChannelNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="),
            UInt8(ascii: "@"), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ";"):
            true
        default:
            false
        }
    }
}
