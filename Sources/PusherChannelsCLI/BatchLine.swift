// SPDX-License-Identifier: MIT

import PusherChannelsServer

/// One line of `trigger --batch`'s standard input:
/// `{"channel": …, "event": …, "data": …, "socket_id"?: …}`, where `data` is a string (sent as it
/// is) or any other JSON value (sent as its JSON text).
enum BatchLine {
    private static let fields: Set<String> = ["channel", "event", "data", "socket_id"]

    /// The event of line `number`, nil for a blank line; a usage error names the line and what is
    /// wrong with it.
    static func event(_ line: String, number: Int, info: [ChannelAttribute]) throws(CLIError) -> BatchEvent? {
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw CLIError("line \(number) of standard input is not JSON: \(error.message)")
        }
        guard case .object(let object) = value else {
            throw CLIError("line \(number) of standard input is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw CLIError(
                "line \(number) of standard input has an unknown field \"\(unknown)\" (known: channel, event, data, socket_id)"
            )
        }
        guard let channel = object["channel"]?.stringValue else {
            throw CLIError("line \(number) of standard input needs \"channel\", a string")
        }
        guard let event = object["event"]?.stringValue else {
            throw CLIError("line \(number) of standard input needs \"event\", a string")
        }
        let data: String
        switch object["data"] {
        case nil: throw CLIError("line \(number) of standard input needs \"data\"")
        case .string(let text)?: data = text
        case let other?: data = other.jsonText
        }
        var socketID: String?
        if let value = object["socket_id"] {
            guard let text = value.stringValue else {
                throw CLIError("line \(number) of standard input: \"socket_id\" must be a string")
            }
            socketID = text
        }
        return BatchEvent(channel: channel, event: event, data: data, socketID: socketID, info: info)
    }
}
