// SPDX-License-Identifier: MIT

/// One event received on a channel.
public struct ChannelEvent: Sendable, Hashable {
    /// The channel the event arrived on.
    public var channel: String
    /// The event name, e.g. `new-price` or `client-typing`.
    public var name: String
    /// The event's data exactly as received: the JSON string's content for double-encoded data (how
    /// Pusher sends it), or the exact JSON text when a server sends an object. Empty when the message
    /// had no data.
    public var data: String
    /// The sender's user id, present on client events of presence channels (set by the server, so
    /// it can be trusted).
    public var userID: String?

    public init(channel: String, name: String, data: String, userID: String? = nil) {
        self.channel = channel
        self.name = name
        self.data = data
        self.userID = userID
    }

    /// Whether this is `pusher:cache_miss`: the first event of a cache channel when the server has no
    /// cached last event, so the app should fetch the initial state itself.
    public var isCacheMiss: Bool { self.name == PusherEventName.cacheMiss }
}

extension ChannelEvent {
    /// The event a received message stands for, on `channel` (the message's), with `data` in place
    /// of the message's own when given (a decrypted payload).
    package init(_ message: PusherMessage, channel: String, data: String? = nil) {
        self.init(channel: channel, name: message.event, data: data ?? message.data ?? "", userID: message.userID)
    }
}
