// SPDX-License-Identifier: MIT

import PusherCore

/// The checks every call makes before it builds a request: names, `socket_id`s and limits.
enum RequestRules {
    /// The prefix of the channels `sendToUser` publishes on, the only names that may hold `#`.
    static let serverToUserPrefix = PusherNameRules.serverToUserPrefix
    static let encryptedPrefix = "private-encrypted-"

    /// Checks a channel name with ``PusherNameRules``: 1…`limits.channelNameLength` bytes from
    /// `A-Z a-z 0-9 _ - = @ , . ;`, or a `#server-to-user-` name when `allowsServerToUser`.
    static func checkChannel(
        _ name: String, limits: PusherServerConfiguration.Limits, allowsServerToUser: Bool = true
    ) throws(PusherServerError) {
        let problem = PusherNameRules.channelNameProblem(
            name, maximumBytes: limits.channelNameLength, allowsServerToUser: allowsServerToUser)
        switch problem {
        case nil:
            return
        case .empty:
            throw PusherServerError(.invalidArgument, "a channel name is empty")
        case .reserved:
            throw PusherServerError(
                .invalidArgument,
                "the channel name \(Self.shown(name)) starts with '#', which only #server-to-user- names may")
        case .invalidCharacter:
            throw PusherServerError(
                .invalidArgument,
                "the channel name \(Self.shown(name)) has a character other than A-Z a-z 0-9 _ - = @ , . ;")
        case .tooLong(let bytes, let maximum):
            throw PusherServerError(
                .limitExceeded, "the channel name \(Self.shown(name)) is \(bytes) bytes, more than \(maximum)")
        }
    }

    /// Checks an event name: not empty, at most `limits.eventNameLength` bytes.
    static func checkEvent(_ name: String, limits: PusherServerConfiguration.Limits) throws(PusherServerError) {
        guard !name.isEmpty else { throw PusherServerError(.invalidArgument, "the event name is empty") }
        guard PusherNameRules.isValidEventName(name, maximumBytes: limits.eventNameLength) else {
            throw PusherServerError(
                .limitExceeded, "the event name is \(name.utf8.count) bytes, more than \(limits.eventNameLength ?? 0)")
        }
    }

    /// Checks a `socket_id` with ``PusherNameRules``: digits, a dot, digits, at most 64 bytes.
    static func checkSocketID(_ socketID: String) throws(PusherServerError) {
        guard PusherNameRules.isValidSocketID(socketID) else {
            throw PusherServerError(
                .invalidArgument,
                "the socket id \(Self.shown(socketID)) is not digits.digits of at most \(PusherNameRules.maximumSocketIDBytes) bytes"
            )
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

    static func isChannelNameByte(_ byte: UInt8) -> Bool { PusherNameRules.isChannelNameByte(byte) }

    /// `text` for an error message: at most 200 bytes of it (the name may be anything a caller
    /// passed), cut at a character boundary.
    static func shown(_ text: String) -> String {
        guard text.utf8.count > 200 else { return text }
        var cut = ""
        for character in text {
            guard cut.utf8.count + character.utf8.count <= 200 else { break }
            cut.append(character)
        }
        return cut + "…"
    }
}
