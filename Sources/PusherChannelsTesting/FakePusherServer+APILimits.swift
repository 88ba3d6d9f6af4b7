// SPDX-License-Identifier: MIT

extension FakePusherServer {
    /// The limits the fake server's HTTP API enforces; `nil` disables one.
    public struct APILimits: Sendable, Hashable {
        /// Most channels in one trigger (more: 400).
        public var channelsPerTrigger: Int?
        /// Most events in one batch trigger (more: 400).
        public var eventsPerBatch: Int?
        /// Most bytes of an event's `data` string, counted as UTF-8 (more: 413).
        public var dataBytes: Int?

        /// Pusher's limits: 100 channels per trigger, 10 events per batch, 10,240 bytes of data.
        public static let pusher = APILimits(channelsPerTrigger: 100, eventsPerBatch: 10, dataBytes: 10_240)

        /// No limits, like some self-hosted servers.
        public static let none = APILimits(channelsPerTrigger: nil, eventsPerBatch: nil, dataBytes: nil)

        /// Limits with the given values.
        ///
        /// - Parameters:
        ///   - channelsPerTrigger: Most channels in one trigger, or nil for no limit.
        ///   - eventsPerBatch: Most events in one batch trigger, or nil for no limit.
        ///   - dataBytes: Most UTF-8 bytes of an event's data, or nil for no limit.
        public init(channelsPerTrigger: Int?, eventsPerBatch: Int?, dataBytes: Int?) {
            self.channelsPerTrigger = channelsPerTrigger
            self.eventsPerBatch = eventsPerBatch
            self.dataBytes = dataBytes
        }
    }
}
