// SPDX-License-Identifier: MIT

import PusherCore

extension PusherServerConfiguration {
    /// The limits ``PusherServer`` checks before it sends a request, so that a call that the server
    /// would refuse fails at once with ``PusherServerError/Code/limitExceeded`` and nothing is sent.
    ///
    /// `nil` means unchecked. ``pusher`` (the default) holds Pusher's published limits; self-hosted
    /// servers may allow more, so use ``none`` or your own values there:
    ///
    /// ```swift
    /// var configuration = try PusherServerConfiguration(appID: "app", key: "key", secret: secret, host: "soketi.local")
    /// configuration.limits = .none
    /// configuration.limits.dataBytes = 100_000
    /// ```
    ///
    /// Channel-name characters (`A-Z a-z 0-9 _ - = @ , . ;`, and `#` only in `#server-to-user-`
    /// names) and `socket_id`s (digits, a dot, digits; at most 64 bytes) are checked whatever the
    /// limits.
    public struct Limits: Sendable, Hashable, CustomStringConvertible {
        /// Channels in one trigger (Pusher: 100).
        public var channelsPerTrigger: Int?
        /// Events in one batch trigger (Pusher: 10).
        public var eventsPerBatch: Int?
        /// UTF-8 bytes of one event's `data` as sent: for encrypted channels, the ciphertext JSON
        /// (Pusher: 10,240).
        public var dataBytes: Int?
        /// UTF-8 bytes of a channel name (Pusher: 164, as its documentation says; the client and the
        /// fake server check the same).
        public var channelNameLength: Int?
        /// UTF-8 bytes of an event name (Pusher: 200).
        public var eventNameLength: Int?

        /// Limits with the given values; `nil` leaves one unchecked.
        ///
        /// - Parameters:
        ///   - channelsPerTrigger: Channels in one trigger.
        ///   - eventsPerBatch: Events in one batch trigger.
        ///   - dataBytes: UTF-8 bytes of one event's data as sent.
        ///   - channelNameLength: UTF-8 bytes of a channel name.
        ///   - eventNameLength: UTF-8 bytes of an event name.
        public init(
            channelsPerTrigger: Int? = nil,
            eventsPerBatch: Int? = nil,
            dataBytes: Int? = nil,
            channelNameLength: Int? = nil,
            eventNameLength: Int? = nil
        ) {
            self.channelsPerTrigger = channelsPerTrigger
            self.eventsPerBatch = eventsPerBatch
            self.dataBytes = dataBytes
            self.channelNameLength = channelNameLength
            self.eventNameLength = eventNameLength
        }

        /// Pusher's limits: 100 channels per trigger, 10 events per batch, 10,240 bytes of data,
        /// channel names of at most 164 bytes and event names of at most 200 bytes.
        public static let pusher = Limits(
            channelsPerTrigger: 100, eventsPerBatch: 10, dataBytes: 10_240,
            channelNameLength: PusherNameRules.maximumChannelNameBytes,
            eventNameLength: PusherNameRules.maximumEventNameBytes
        )

        /// No numeric limit: for self-hosted servers with their own. Names and `socket_id`s are still
        /// checked for their characters.
        public static let none = Limits()

        /// The limits, `nil` ones shown as `none`.
        public var description: String {
            func text(_ value: Int?) -> String { value.map(String.init) ?? "none" }
            return "Limits(channelsPerTrigger: \(text(self.channelsPerTrigger)), eventsPerBatch: "
                + "\(text(self.eventsPerBatch)), dataBytes: \(text(self.dataBytes)), channelNameLength: "
                + "\(text(self.channelNameLength)), eventNameLength: \(text(self.eventNameLength)))"
        }
    }
}
