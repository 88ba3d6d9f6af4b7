// SPDX-License-Identifier: MIT

/// One event received on a channel.
///
/// Its fields live in one shared, immutable object (the received message's own, when the event
/// is delivered as it arrived): copying an event, as every hand-over on its way to a consumer
/// does, retains that one object instead of each string. Setting a property gives the event a
/// new object of its own; other copies keep theirs.
public struct ChannelEvent: Sendable, Hashable {
    private var fields: MessageFields

    /// The channel the event arrived on.
    public var channel: String {
        get { self.fields.channel ?? "" }
        set {
            self.fields = MessageFields.make(event: self.name, channel: newValue, data: self.data, userID: self.userID)
        }
    }

    /// The event name, e.g. `new-price` or `client-typing`.
    public var name: String {
        get { self.fields.event }
        set {
            self.fields = MessageFields.make(
                event: newValue, channel: self.channel, data: self.data, userID: self.userID)
        }
    }

    /// The event's data exactly as received: the JSON string's content for double-encoded data (how
    /// Pusher sends it), or the exact JSON text when a server sends an object. Empty when the message
    /// had no data.
    ///
    /// The event keeps the data's UTF-8 bytes; each read of this property makes a `String` of them.
    /// Keep it in a local when you use it more than once. `decode(_:using:)` reads the bytes
    /// without making a `String`.
    public var data: String {
        get { self.fields.data ?? "" }
        set {
            self.fields = MessageFields.make(
                event: self.name, channel: self.channel, data: newValue, userID: self.userID)
        }
    }

    /// The sender's user id, present on client events of presence channels (set by the server, so
    /// it can be trusted).
    public var userID: String? {
        get { self.fields.userID }
        set {
            self.fields = MessageFields.make(event: self.name, channel: self.channel, data: self.data, userID: newValue)
        }
    }

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - channel: The channel the event arrived on.
    ///   - name: The event name.
    ///   - data: The event's data as text.
    ///   - userID: The sender's user id, for client events of presence channels.
    public init(channel: String, name: String, data: String, userID: String? = nil) {
        self.fields = MessageFields.make(event: name, channel: channel, data: data, userID: userID)
    }

    private init(fields: MessageFields) {
        self.fields = fields
    }

    /// Runs `body` over the data's UTF-8 bytes, where the event keeps them (empty when the message
    /// had no data); they are valid only inside `body`.
    package func withDataBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        if let result = try self.fields.withDataBytes(body) { return result }
        return try body(UnsafeBufferPointer(start: nil, count: 0))
    }

    /// About how many bytes the event keeps alive: its data, name, channel and user id, plus 64.
    package var approximateByteCount: Int { self.fields.approximateByteCount }

    /// Whether this is `pusher:cache_miss`: the first event of a cache channel when the server has no
    /// cached last event, so the app should fetch the initial state itself.
    public var isCacheMiss: Bool { self.name == PusherEventName.cacheMiss }

    public static func == (lhs: ChannelEvent, rhs: ChannelEvent) -> Bool {
        lhs.fields.isIdentical(to: rhs.fields)
            || (lhs.channel == rhs.channel && lhs.name == rhs.name && lhs.data == rhs.data && lhs.userID == rhs.userID)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.channel)
        hasher.combine(self.name)
        hasher.combine(self.data)
        hasher.combine(self.userID)
    }
}

extension ChannelEvent: CustomReflectable {
    /// The event's four properties, as for a plain struct: `print(event)` and `dump(event)` show them.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["channel": self.channel, "name": self.name, "data": self.data, "userID": self.userID as Any],
            displayStyle: .struct)
    }
}

extension ChannelEvent {
    /// The event a received message stands for, on `channel` (the message's), with `data` in place
    /// of the message's own when given (a decrypted payload). Without new data it shares the
    /// message's fields: no copy of any string.
    package init(_ message: PusherMessage, channel: String, data: String? = nil) {
        if data == nil, message.channel == channel {
            self.init(fields: message.fields)
        } else {
            self.init(channel: channel, name: message.event, data: data ?? message.data ?? "", userID: message.userID)
        }
    }
}
