// SPDX-License-Identifier: MIT

/// The answer to a batch trigger: the counts the server reported for each event, its status and its
/// body as returned.
///
/// Any 2xx means the server accepted every event of the batch, whatever the body. Servers answer
/// differently: Pusher `{}`, or `{"batch":[{counts}, {}, …]}` (one entry per event) when an event
/// asked for `info`; Laravel Reverb `{"batch":{}}` without `info`; soketi `{"ok":true}`;
/// pusher-fake `{}`; a proxy perhaps `OK`. Counts are read only where the body has one entry per
/// event.
public struct BatchResult: Sendable, Hashable {
    /// The counts of each event's channel, in the order of the events, when the server reported
    /// valid counts for each event; empty when it reported none (or not one valid entry per event).
    /// An event that did not ask for `info` has empty counts.
    public let events: [ChannelCounts]
    /// The server's answer as returned, such as `{}` or `{"batch":[{…},{}]}`; not necessarily JSON.
    public let responseBody: String
    /// The HTTP status of the answer (a 2xx).
    public let httpStatus: Int

    /// A result with the given values (for tests of code that uses ``PusherServer``).
    ///
    /// - Parameters:
    ///   - events: The counts of each event's channel, in order.
    ///   - responseBody: The server's answer.
    ///   - httpStatus: The answer's HTTP status.
    public init(events: [ChannelCounts] = [], responseBody: String = "{}", httpStatus: Int = 200) {
        self.events = events
        self.responseBody = responseBody
        self.httpStatus = httpStatus
    }

    /// The counts of the event at `index` in the batch, or nil when the server reported none.
    ///
    /// ```swift
    /// let result = try await pusher.triggerBatch(events)
    /// if let counts = result.counts(forEventAt: 0) { print(counts.subscriptionCount ?? 0) }
    /// ```
    ///
    /// - Parameter index: The event's index in the batch.
    /// - Returns: Its counts, or nil when the server reported none.
    public func counts(forEventAt index: Int) -> ChannelCounts? {
        self.events.indices.contains(index) ? self.events[index] : nil
    }

    /// Reads `{"batch": [{counts}, …]}` when it has `eventCount` entries, each valid counts (an
    /// object, its counts integers); otherwise reports none. Never fails.
    init(parsing body: String, status: Int, eventCount: Int) {
        var events: [ChannelCounts] = []
        if case .object(let fields)? = ResponseJSON.parsed(body), case .array(let entries)? = fields["batch"] {
            let counts = entries.compactMap(ChannelCounts.init)
            if counts.count == eventCount, entries.count == eventCount { events = counts }
        }
        self.init(events: events, responseBody: body, httpStatus: status)
    }
}
