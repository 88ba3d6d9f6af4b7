// SPDX-License-Identifier: MIT

/// A verified webhook: the events of one POST, in the order they were sent.
public struct Webhook: Sendable {
    /// The body's `time_ms`, as sent. Not checked: servers disagree on its unit (pusher-fake sends
    /// seconds) and some send a string.
    public var timeMs: JSONValue?
    /// The body's `events`.
    public var events: [WebhookEvent]

    /// A webhook with these events.
    ///
    /// - Parameters:
    ///   - timeMs: The body's `time_ms`.
    ///   - events: The body's events.
    public init(timeMs: JSONValue?, events: [WebhookEvent]) {
        self.timeMs = timeMs
        self.events = events
    }
}
