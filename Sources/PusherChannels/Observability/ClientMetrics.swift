// SPDX-License-Identifier: MIT

import CoreMetrics
import PusherCore

/// The bookkeeping of the client's swift-metrics instruments, kept in the client's driver (under
/// its lock). It never calls the metrics backend: it decides what changes (``ClientMetrics/Update``s and
/// per-batch sums, taken out with the driver's ``Observations``), and ``MetricsRecorder`` tells the
/// backend once the lock is released.
///
/// The per-event metrics are counted per batch: the driver adds up what one batch delivered or
/// dropped and each counter is incremented once. Instruments with dimensions are made (outside the
/// lock) on first use and kept here, so the metrics backend is asked for each one once.
struct ClientMetrics: Sendable {
    /// One change to a swift-metrics instrument, decided under the engine lock and recorded after it
    /// (by ``MetricsRecorder``). An instrument the client has not made yet is named by its label and
    /// dimensions: it is made outside the lock too, since making one calls the backend's factory.
    enum Update: Sendable {
        /// A counter's label and dimensions (flat: name, value, name, value…).
        struct Key: Hashable, Sendable {
            var label: String
            var dimensions: [String]
        }

        case increment(Key, by: Int, made: Counter?)
        case record(Key, nanoseconds: Int64, made: Timer?)
        /// The `pusher_connected` and `pusher_subscriptions` meters, moved by a difference.
        case connected(delta: Int)
        case subscriptions(delta: Int)
    }

    typealias Key = Update.Key

    let includesChannelLabel: Bool
    /// Instruments with dimensions already made (see ``MetricsRecorder``).
    private var counters: [Key: Counter] = [:]
    private var timers: [Key: Timer] = [:]
    /// The engine's running count of received channel events at the last report.
    private var reportedReceived = 0
    /// This client's share of the gauges.
    private var reportedConnected = 0
    private var reportedSubscriptions = 0
    /// Not yet told: channel events received, per-batch tallies without a channel label, the rest.
    private(set) var eventsReceived = 0
    private(set) var handedOver = DeliveryTally()
    private(set) var updates: [Update] = []

    init(includesChannelLabel: Bool) {
        self.includesChannelLabel = includesChannelLabel
    }

    /// Moves what is not yet told into `observations`.
    mutating func take(into observations: inout Observations) {
        observations.eventsReceived = self.eventsReceived
        observations.handedOver = self.handedOver
        observations.metrics = self.updates
        self.eventsReceived = 0
        self.handedOver = DeliveryTally()
        self.updates = []
    }

    /// Keeps the instruments the recorder made, so that the next update finds them.
    mutating func keep(_ made: MetricsRecorder.Made) {
        for (key, counter) in made.counters { self.counters[key] = counter }
        for (key, timer) in made.timers { self.timers[key] = timer }
    }

    // MARK: Connection

    /// Counts a state change (and a reconnection with its cause) and moves the `pusher_connected` gauge.
    mutating func stateChanged(to state: ConnectionState) {
        let name: String
        switch state {
        case .initialized: name = "initialized"
        case .connecting: name = "connecting"
        case .connected: name = "connected"
        case .reconnecting(_, _, let cause):
            name = "reconnecting"
            self.increment("pusher_reconnects_total", ["cause", Self.snakeCase(cause.code.description)])
        case .disconnected: name = "disconnected"
        case .failed: name = "failed"
        }
        self.increment("pusher_connection_state_changes_total", ["state", name])
        let connected = state.isConnected ? 1 : 0
        if connected != self.reportedConnected {
            self.updates.append(.connected(delta: connected - self.reportedConnected))
            self.reportedConnected = connected
        }
    }

    /// Moves the `pusher_subscriptions` gauge to `count`.
    mutating func subscriptionCount(_ count: Int) {
        guard count != self.reportedSubscriptions else { return }
        self.updates.append(.subscriptions(delta: count - self.reportedSubscriptions))
        self.reportedSubscriptions = count
    }

    // MARK: Events (once per batch)

    /// Adds the channel events received since the last report (`total` is the engine's running count).
    mutating func received(total: Int) {
        let new = total - self.reportedReceived
        guard new > 0 else { return }
        self.reportedReceived = total
        self.eventsReceived += new
    }

    /// Adds one hand-over's tally (of one channel with channel labels, of the batch without).
    mutating func handedOver(_ tally: DeliveryTally, channel: String?) {
        guard self.includesChannelLabel else {
            self.handedOver.accepted += tally.accepted
            self.handedOver.dropped += tally.dropped
            self.handedOver.consumersFailed += tally.consumersFailed
            return
        }
        let label = ["channel", channel ?? "*"]
        self.increment("pusher_events_delivered_total", label, by: tally.accepted)
        self.increment("pusher_events_dropped_total", label, by: tally.dropped)
        self.increment("pusher_consumers_failed_total", label, by: tally.consumersFailed)
    }

    // MARK: Requests

    /// Counts and times one authorizer call (a subscription's or a key reload's).
    mutating func authorization(channel: String, isKeyReload: Bool, succeeded: Bool, duration: Duration) {
        let kind = isKeyReload ? "key_reload" : "subscribe"
        let result = succeeded ? "success" : "failure"
        var dimensions = ["kind", kind, "result", result]
        self.record("pusher_authorization_duration_seconds", dimensions, duration)
        if self.includesChannelLabel { dimensions += ["channel", channel] }
        self.increment("pusher_authorizations_total", dimensions)
    }

    /// Counts and times one user-authenticator call.
    mutating func signIn(succeeded: Bool, duration: Duration) {
        let dimensions = ["result", succeeded ? "success" : "failure"]
        self.record("pusher_sign_in_duration_seconds", dimensions, duration)
        self.increment("pusher_sign_ins_total", dimensions)
    }

    // MARK: Encrypted channels

    /// Counts a decryption failure by reason.
    mutating func decryptionFailed(_ failure: DecryptionFailure) {
        let reason: String
        switch failure.reason {
        case .malformedPayload: reason = "malformed_payload"
        case .cannotDecrypt: reason = "cannot_decrypt"
        case .reloadFailed: reason = "reload_failed"
        case .channelGone: reason = "channel_gone"
        case .heldEventsLimit: reason = "held_events_limit"
        case .notEncrypted: reason = "not_encrypted"
        }
        var dimensions = ["reason", reason]
        if self.includesChannelLabel { dimensions += ["channel", failure.channel] }
        self.increment("pusher_decryption_failures_total", dimensions)
    }

    /// Counts a pause of reading for a consumer that fell behind.
    mutating func readingPaused() {
        self.increment("pusher_reading_paused_total", [])
    }

    /// Counts a key reload of an encrypted channel.
    mutating func keyReloadStarted(channel: String) {
        self.increment("pusher_key_reloads_total", self.includesChannelLabel ? ["channel", channel] : [])
    }

    // MARK: Updates

    private mutating func increment(_ label: String, _ dimensions: [String], by count: Int = 1) {
        guard count > 0 else { return }
        let key = Key(label: label, dimensions: dimensions)
        self.updates.append(.increment(key, by: count, made: self.counters[key]))
    }

    private mutating func record(_ label: String, _ dimensions: [String], _ duration: Duration) {
        let key = Key(label: label, dimensions: dimensions)
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        self.updates.append(.record(key, nanoseconds: nanoseconds, made: self.timers[key]))
    }

    /// `connectionFailed` → `connection_failed`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result.append("_")
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }
}
