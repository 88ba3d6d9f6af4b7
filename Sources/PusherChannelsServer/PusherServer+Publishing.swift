// SPDX-License-Identifier: MIT

extension PusherServer {
    /// Publishes an event on one or more channels (`POST /apps/ID/events`).
    ///
    /// ```swift
    /// try await pusher.trigger(channels: ["orders", "dashboard"], event: "created", data: #"{"id":42}"#)
    /// // Not back to the connection that caused it, and with the channels' counts:
    /// let result = try await pusher.trigger(
    ///     channels: ["presence-room"], event: "moved", data: #"{"x":1}"#, socketID: "1234.5678", info: [.userCount])
    /// ```
    ///
    /// The data is sent as it is (usually JSON text). A trigger to one private-encrypted channel is
    /// encrypted with ``PusherServerConfiguration/encryptionMasterKey`` and a fresh random nonce;
    /// an encrypted channel must be the trigger's only channel.
    ///
    /// > Important: Triggers are never retried. When a call fails with a timeout or a transport
    /// > error (``PusherServerError/isRetryable``), the event may have been published already:
    /// > sending it again can publish it twice.
    ///
    /// - Parameters:
    ///   - channels: 1 to ``PusherServerConfiguration/Limits/channelsPerTrigger`` channel names.
    ///   - event: The event's name.
    ///   - data: The event's data, at most ``PusherServerConfiguration/Limits/dataBytes`` UTF-8 bytes
    ///     as sent (for an encrypted channel, the ciphertext JSON: about 4/3 of the data plus 90 bytes).
    ///   - socketID: The connection (`digits.digits`) that should not receive the event.
    ///   - info: The counts to report for each channel.
    /// - Returns: The counts the server reported and its answer as returned. Any 2xx is success,
    ///   whatever the body (`{}`, `{"ok":true}`, a proxy's `OK`).
    /// - Throws: ``PusherServerError``: `invalidArgument`, `limitExceeded` or `invalidConfiguration`
    ///   before anything is sent; `httpStatus`, `timeout`, `transport` or `cancelled` after.
    @discardableResult
    public func trigger(
        channels: [String], event: String, data: String, socketID: String? = nil, info: [ChannelAttribute] = []
    ) async throws(PusherServerError) -> TriggerResult {
        try await self.perform(.trigger, attributes: ["pusher.channel_count": channels.count]) {
            (builder, nonce) throws(PusherServerError) in
            try builder.trigger(
                channels: channels, event: event, data: data, socketID: socketID, info: info, nonce: nonce)
        } decode: { (response) in
            TriggerResult(parsing: response.body, status: response.status)
        }
    }

    /// Publishes an event whose data is any `Encodable` value, encoded once as JSON, on one or more
    /// channels.
    ///
    /// ```swift
    /// struct Order: Encodable, Sendable { let id: Int }
    /// try await pusher.trigger(channels: ["orders", "dashboard"], event: "created", data: Order(id: 42))
    /// ```
    ///
    /// > Important: Triggers are never retried; a retry after a timeout can publish twice.
    ///
    /// - Parameters:
    ///   - channels: 1 to ``PusherServerConfiguration/Limits/channelsPerTrigger`` channel names.
    ///   - event: The event's name.
    ///   - data: The event's data, encoded with a `JSONEncoder` (slashes not escaped).
    ///   - socketID: The connection (`digits.digits`) that should not receive the event.
    ///   - info: The counts to report for each channel.
    /// - Returns: The counts asked for and the server's answer as returned.
    /// - Throws: ``PusherServerError``, as `trigger(channels:event:data:socketID:info:)`,
    ///   and `invalidArgument` when the data cannot be encoded.
    @discardableResult
    public func trigger(
        channels: [String],
        event: String,
        data: some Encodable & Sendable,
        socketID: String? = nil,
        info: [ChannelAttribute] = []
    ) async throws(PusherServerError) -> TriggerResult {
        try await self.trigger(
            channels: channels, event: event, data: try EventData.json(data), socketID: socketID, info: info)
    }

    /// Publishes an event on one channel.
    ///
    /// ```swift
    /// try await pusher.trigger(channel: "orders", event: "created", data: #"{"id":42}"#)
    /// // On a private-encrypted channel the data is encrypted with the configured master key:
    /// try await pusher.trigger(channel: "private-encrypted-payments", event: "paid", data: #"{"amount":10}"#)
    /// ```
    ///
    /// > Important: Triggers are never retried. After a timeout or a transport error the event may
    /// > have been published; sending it again can publish it twice.
    ///
    /// - Parameters:
    ///   - channel: The channel's name.
    ///   - event: The event's name.
    ///   - data: The event's data, sent as it is (encrypted on a private-encrypted channel).
    ///   - socketID: The connection (`digits.digits`) that should not receive the event.
    ///   - info: The counts to report for the channel.
    /// - Returns: The counts asked for and the server's answer as returned.
    /// - Throws: ``PusherServerError``, as `trigger(channels:event:data:socketID:info:)`.
    @discardableResult
    public func trigger(
        channel: String, event: String, data: String, socketID: String? = nil, info: [ChannelAttribute] = []
    ) async throws(PusherServerError) -> TriggerResult {
        try await self.trigger(channels: [channel], event: event, data: data, socketID: socketID, info: info)
    }

    /// Publishes an event whose data is any `Encodable` value, encoded once as JSON, on one channel.
    ///
    /// ```swift
    /// struct Payment: Encodable, Sendable { let amount: Int }
    /// try await pusher.trigger(channel: "private-encrypted-payments", event: "paid", data: Payment(amount: 10))
    /// ```
    ///
    /// > Important: Triggers are never retried; a retry after a timeout can publish twice.
    ///
    /// - Parameters:
    ///   - channel: The channel's name.
    ///   - event: The event's name.
    ///   - data: The event's data, encoded with a `JSONEncoder` (slashes not escaped).
    ///   - socketID: The connection (`digits.digits`) that should not receive the event.
    ///   - info: The counts to report for the channel.
    /// - Returns: The counts asked for and the server's answer as returned.
    /// - Throws: ``PusherServerError``, as `trigger(channels:event:data:socketID:info:)`,
    ///   and `invalidArgument` when the data cannot be encoded.
    @discardableResult
    public func trigger(
        channel: String,
        event: String,
        data: some Encodable & Sendable,
        socketID: String? = nil,
        info: [ChannelAttribute] = []
    ) async throws(PusherServerError) -> TriggerResult {
        try await self.trigger(
            channels: [channel], event: event, data: try EventData.json(data), socketID: socketID, info: info)
    }

    /// Publishes several events in one request (`POST /apps/ID/batch_events`), each on its own
    /// channel, in the given order.
    ///
    /// ```swift
    /// let result = try await pusher.triggerBatch([
    ///     BatchEvent(channel: "orders", event: "created", data: #"{"id":1}"#, info: [.subscriptionCount]),
    ///     BatchEvent(channel: "private-encrypted-payments", event: "paid", data: #"{"id":1}"#),
    /// ])
    /// print(result.counts(forEventAt: 0)?.subscriptionCount ?? 0)
    /// ```
    ///
    /// Events on private-encrypted channels are encrypted one by one, each with a fresh nonce. Send
    /// more than ``PusherServerConfiguration/Limits/eventsPerBatch`` events as several batches.
    ///
    /// > Important: Batches are never retried. After a timeout or a transport error the events may
    /// > have been published; sending them again can publish them twice.
    ///
    /// - Parameter events: 1 to ``PusherServerConfiguration/Limits/eventsPerBatch`` events.
    /// - Returns: The counts the server reported, one per event (none when it reported none: Reverb's
    ///   `{"batch":{}}`, `{}`), and its answer as returned. Any 2xx is success, whatever the body.
    /// - Throws: ``PusherServerError``: `invalidArgument`, `limitExceeded` or `invalidConfiguration`
    ///   (naming the event's index) before anything is sent; `httpStatus`, `timeout`, `transport` or
    ///   `cancelled` after.
    @discardableResult
    public func triggerBatch(_ events: [BatchEvent]) async throws(PusherServerError) -> BatchResult {
        try await self.perform(.batchTrigger, attributes: ["pusher.event_count": events.count]) {
            (builder, nonce) throws(PusherServerError) in
            try builder.batch(events, nonce: nonce)
        } decode: { (response) in
            BatchResult(parsing: response.body, status: response.status, eventCount: events.count)
        }
    }
}
