// SPDX-License-Identifier: MIT

/// One event of a batch trigger: its own channel, name and data, and optionally a `socket_id` to
/// exclude and the counts to report.
///
/// ```swift
/// let events = [
///     BatchEvent(channel: "orders", event: "created", data: #"{"id":1}"#),
///     try BatchEvent(channel: "private-encrypted-payments", event: "paid", data: Payment(id: 1)),
/// ]
/// let result = try await pusher.triggerBatch(events)
/// ```
public struct BatchEvent: Sendable, Hashable {
    /// The channel this event goes to.
    public var channel: String
    /// The event's name.
    public var event: String
    /// The event's data as text, sent as it is (encrypted on a private-encrypted channel).
    public var data: String
    /// The connection not to send this event to (the one that caused it), `digits.digits`.
    public var socketID: String?
    /// The counts to report for this event's channel.
    public var info: [ChannelAttribute]

    /// An event whose data is text, sent as it is.
    ///
    /// - Parameters:
    ///   - channel: The channel.
    ///   - event: The event's name.
    ///   - data: The data, usually JSON text.
    ///   - socketID: A connection to exclude, if any.
    ///   - info: The counts to report for the channel.
    public init(
        channel: String, event: String, data: String, socketID: String? = nil, info: [ChannelAttribute] = []
    ) {
        self.channel = channel
        self.event = event
        self.data = data
        self.socketID = socketID
        self.info = info
    }

    /// An event whose data is any `Encodable` value, encoded once as JSON.
    ///
    /// - Parameters:
    ///   - channel: The channel.
    ///   - event: The event's name.
    ///   - data: The data, encoded with a `JSONEncoder`.
    ///   - socketID: A connection to exclude, if any.
    ///   - info: The counts to report for the channel.
    /// - Throws: ``PusherServerError`` `invalidArgument` when the data cannot be encoded.
    public init(
        channel: String,
        event: String,
        data: some Encodable & Sendable,
        socketID: String? = nil,
        info: [ChannelAttribute] = []
    ) throws(PusherServerError) {
        self.init(channel: channel, event: event, data: try EventData.json(data), socketID: socketID, info: info)
    }
}
