// SPDX-License-Identifier: MIT

/// One message of the Pusher protocol as it arrived: `{"event", "channel"?, "data"?, "user_id"?}`.
///
/// `data` is kept as text. Pusher sends it as a JSON string that itself holds JSON ("double
/// encoding"); that string is unescaped once and kept exactly. Some servers send an object instead;
/// then `data` is the object's exact JSON text. Either way, decoding the JSON inside is left to
/// whoever needs it, so a channel event is parsed once and only its envelope.
///
/// Its fields live in one shared ``MessageFields`` object: a copy of a message (or the
/// ``ChannelEvent`` made from it) costs one retain, whatever it holds.
package struct PusherMessage: Sendable, Hashable {
    package private(set) var fields: MessageFields

    package init(fields: MessageFields) {
        self.fields = fields
    }

    package init(event: String, channel: String? = nil, data: String? = nil, userID: String? = nil) {
        self.fields = MessageFields.make(event: event, channel: channel, data: data, userID: userID)
    }

    package var event: String {
        get { self.fields.event }
        set {
            self.fields = MessageFields.make(
                event: newValue, channel: self.channel, data: self.data, userID: self.userID)
        }
    }

    package var channel: String? {
        get { self.fields.channel }
        set {
            self.fields = MessageFields.make(event: self.event, channel: newValue, data: self.data, userID: self.userID)
        }
    }

    /// The data as text: a new `String` each time (see ``withDataBytes(_:)``).
    package var data: String? {
        get { self.fields.data }
        set {
            self.fields = MessageFields.make(
                event: self.event, channel: self.channel, data: newValue, userID: self.userID)
        }
    }

    /// Runs `body` over the data's UTF-8 bytes (no `String` is made); nil without data.
    package func withDataBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R? {
        try self.fields.withDataBytes(body)
    }

    /// The `user_id` field, present on client events of presence channels. Numbers become their text.
    package var userID: String? {
        get { self.fields.userID }
        set {
            self.fields = MessageFields.make(
                event: self.event, channel: self.channel, data: self.data, userID: newValue)
        }
    }

    package static func == (lhs: PusherMessage, rhs: PusherMessage) -> Bool {
        lhs.fields.hasSameValues(as: rhs.fields)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(self.event)
        hasher.combine(self.channel)
        hasher.combine(self.data)
        hasher.combine(self.userID)
    }

    /// Parses the text of one WebSocket message.
    package init(parsing text: String) throws(PusherError) {
        do {
            self = try JSONScanner.withBytes(of: text, Self.parseEnvelope)
        } catch {
            throw PusherError(.malformedMessage, "invalid message: \(error.reason)")
        }
    }

    /// Parses one WebSocket message from its UTF-8 bytes, such as a frame's payload, without making
    /// a `String` of the whole frame first. Invalid UTF-8 inside strings becomes U+FFFD.
    package init(parsing bytes: UnsafeRawBufferPointer) throws(PusherError) {
        var names = RecentNames()
        try self.init(parsing: bytes, names: &names)
    }

    /// ``init(parsing:)-(UnsafeRawBufferPointer)``, reusing the channel and event names of earlier
    /// messages from `names` when they repeat (no new string for each message of a busy channel),
    /// and remembering this message's.
    package init(parsing bytes: UnsafeRawBufferPointer, names: inout RecentNames) throws(PusherError) {
        do {
            self = try JSONScanner.withBytes(of: bytes) { bytes throws(JSONError) in
                try Self.parseEnvelope(bytes, names: &names)
            }
        } catch {
            throw PusherError(.malformedMessage, "invalid message: \(error.reason)")
        }
    }

    private static func parseEnvelope(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> PusherMessage {
        var names = RecentNames()
        return try Self.parseEnvelope(bytes, names: &names)
    }

    private static func parseEnvelope(_ bytes: UnsafeBufferPointer<UInt8>, names: inout RecentNames) throws(JSONError)
        -> PusherMessage
    {
        var scanner = JSONScanner(bytes)
        var event: String?
        var channel: String?
        // The data is written into the message's object as it is read; the other fields are set
        // in its header at the end.
        var data: (fields: MessageFields, count: Int, isValidUTF8: Bool, isASCII: Bool)?
        var userID: String?
        try scanner.expect(UInt8(ascii: "{"))
        if !(try scanner.consume(UInt8(ascii: "}"))) {
            repeat {
                // The protocol's keys are short: most are read from one eight-byte load.
                let field =
                    if let key = try scanner.readShortPlainString() {
                        Field(word: key.word, count: key.count)
                    } else {
                        try scanner.readString(Field.init)
                    }
                try scanner.expect(UInt8(ascii: ":"))
                switch field {
                case .event:
                    guard try scanner.peek() == UInt8(ascii: "\"") else { throw JSONError("event is not a string") }
                    event = try scanner.readString(reusing: &names.event)
                case .channel:
                    channel = try Self.readOptionalString(&scanner, reusing: &names.channel)
                case .data:
                    data = try Self.readData(&scanner)
                case .userID:
                    userID = try Self.readText(&scanner)
                case .other:
                    _ = try scanner.skipValue()
                }
            } while try scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw JSONError("trailing characters") }
        guard let event else { throw JSONError("no event name") }
        guard let data else {
            return PusherMessage(fields: .make(event: event, channel: channel, data: nil, userID: userID))
        }
        data.fields.finish(
            event: event, channel: channel, userID: userID, dataCount: data.count, isValidUTF8: data.isValidUTF8,
            isASCII: data.isASCII)
        return PusherMessage(fields: data.fields)
    }

    /// Reads the `data` value into a new fields object: a string unescaped, any other value (an
    /// object, say) as its exact JSON text; `null` as no data.
    private static func readData(_ scanner: inout JSONScanner) throws(JSONError)
        -> (fields: MessageFields, count: Int, isValidUTF8: Bool, isASCII: Bool)?
    {
        switch try scanner.peek() {
        case UInt8(ascii: "\""):
            let read = try scanner.readUnescapedString(into: MessageFields.makeForData(capacity:))
            return (read.storage, read.count, read.isValidUTF8, read.isASCII)
        case UInt8(ascii: "n"):
            _ = try scanner.skipValue()
            return nil
        default:
            let read = try scanner.readValueText(into: MessageFields.makeForData(capacity:))
            return (read.storage, read.count, false, false)
        }
    }

    /// The envelope's fields, matched on the key's bytes (no `String` is built for a key): a key of
    /// four to eight bytes is read into one little-endian word and compared with each name's.
    private enum Field {
        case event, channel, data, userID, other

        init(_ key: UnsafeBufferPointer<UInt8>) {
            guard (4...8).contains(key.count) else {
                self = .other
                return
            }
            var word: UInt64 = 0
            for index in key.indices.reversed() { word = word &<< 8 | UInt64(key[index]) }
            self.init(word: word, count: key.count)
        }

        /// The field whose key has `count` bytes, read little-endian into `word` (bytes above
        /// `count` zero).
        @inline(__always)
        init(word: UInt64, count: Int) {
            switch (count, word) {
            case (4, 0x6174_6164): self = .data  // "data"
            case (5, 0x74_6E65_7665): self = .event  // "event"
            case (7, 0x6C_656E_6E61_6863): self = .channel  // "channel"
            case (7, 0x64_695F_7265_7375): self = .userID  // "user_id"
            default: self = .other
            }
        }
    }

    private static func readOptionalString(_ scanner: inout JSONScanner, reusing recent: inout String)
        throws(JSONError) -> String?
    {
        switch try scanner.peek() {
        case UInt8(ascii: "\""): return try scanner.readString(reusing: &recent)
        case UInt8(ascii: "n"):
            _ = try scanner.skipValue()
            return nil
        default: throw JSONError("channel is not a string")
        }
    }

    /// A string value unescaped; `null` as nil; anything else as its exact JSON text.
    private static func readText(_ scanner: inout JSONScanner) throws(JSONError) -> String? {
        switch try scanner.peek() {
        case UInt8(ascii: "\""): return try scanner.readString()
        case UInt8(ascii: "n"):
            _ = try scanner.skipValue()
            return nil
        default: return scanner.text(try scanner.skipValue())
        }
    }

    /// The `data` field parsed as JSON (for control messages).
    package func parsedData() throws(PusherError) -> JSONValue {
        guard let data else { return .null }
        return try JSONValue(parsing: data)
    }

    /// The message as JSON text with `data` sent as a string (how a server sends events).
    package var serializedWithStringData: String {
        var output = "{\"event\":"
        JSONWriter.appendQuoted(self.event, to: &output)
        if let channel {
            output += ",\"channel\":"
            JSONWriter.appendQuoted(channel, to: &output)
        }
        if let data {
            output += ",\"data\":"
            JSONWriter.appendQuoted(data, to: &output)
        }
        if let userID {
            output += ",\"user_id\":"
            JSONWriter.appendQuoted(userID, to: &output)
        }
        output += "}"
        return output
    }
}

extension PusherMessage: CustomReflectable {
    /// The message's four fields, as for a plain struct (in test failures and `dump`).
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "event": self.event, "channel": self.channel as Any, "data": self.data as Any,
                "userID": self.userID as Any,
            ],
            displayStyle: .struct)
    }
}
