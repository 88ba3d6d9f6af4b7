// SPDX-License-Identifier: MIT

import CoreMetrics
import PusherCore

/// The client's swift-metrics instruments, kept in the client's driver (under its lock).
///
/// The per-event metrics are counted per batch: the driver adds up what one batch delivered or
/// dropped and increments each counter once. Instruments with dimensions are made on first use and
/// kept, so the metrics backend is asked for each one once.
struct ClientMetrics: Sendable {
    /// One instrument: its label and dimensions.
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
    }

    private let factory: any MetricsFactory
    let includesChannelLabel: Bool
    private let eventsReceived: Counter
    /// The unlabelled per-consumer counters; nil with channel labels, so that a metric name never
    /// has two label sets (Prometheus refuses that).
    private let eventsDelivered: Counter?
    private let eventsDropped: Counter?
    private let consumersFailed: Counter?
    /// Gauges shared by every client of the factory: each client adds and removes its own share.
    private let connected: Meter
    private let subscriptions: Meter
    private var counters: [Key: Counter] = [:]
    private var timers: [Key: Timer] = [:]
    /// The engine's running count of received channel events at the last report.
    private var reportedReceived = 0
    /// This client's share of the gauges.
    private var reportedConnected = 0
    private var reportedSubscriptions = 0

    /// The metrics of a client with `options`, or nil when no metrics backend is bootstrapped (then
    /// the client records nothing at all).
    init?(options: PusherClientOptions.Metrics) {
        let factory = options.factory ?? MetricsSystem.factory
        if factory is NOOPMetricsHandler { return nil }
        self.factory = factory
        self.includesChannelLabel = options.includesChannelLabel
        self.eventsReceived = Counter(label: "pusher_events_received_total", factory: factory)
        if options.includesChannelLabel {
            (self.eventsDelivered, self.eventsDropped, self.consumersFailed) = (nil, nil, nil)
        } else {
            self.eventsDelivered = Counter(label: "pusher_events_delivered_total", factory: factory)
            self.eventsDropped = Counter(label: "pusher_events_dropped_total", factory: factory)
            self.consumersFailed = Counter(label: "pusher_consumers_failed_total", factory: factory)
        }
        self.connected = Meter(label: "pusher_connected", factory: factory)
        self.subscriptions = Meter(label: "pusher_subscriptions", factory: factory)
    }

    // MARK: Connection

    /// A new connection state: counted by state; a reconnection also by its cause (the error code).
    mutating func stateChanged(to state: ConnectionState) {
        let name: String
        switch state {
        case .initialized: name = "initialized"
        case .connecting: name = "connecting"
        case .connected: name = "connected"
        case .reconnecting(_, _, let cause):
            name = "reconnecting"
            self.counter("pusher_reconnects_total", ["cause", Self.snakeCase(cause.code.description)]).increment()
        case .disconnected: name = "disconnected"
        case .failed: name = "failed"
        }
        self.counter("pusher_connection_state_changes_total", ["state", name]).increment()
        let connected = state.isConnected ? 1 : 0
        if connected != self.reportedConnected {
            Self.move(self.connected, by: connected - self.reportedConnected)
            self.reportedConnected = connected
        }
    }

    /// This client's confirmed subscriptions now; the gauge moves by the difference.
    mutating func subscriptionCount(_ count: Int) {
        guard count != self.reportedSubscriptions else { return }
        Self.move(self.subscriptions, by: count - self.reportedSubscriptions)
        self.reportedSubscriptions = count
    }

    // MARK: Events (once per batch)

    /// The engine's running count of channel events received; the counter grows by the difference.
    mutating func received(total: Int) {
        let new = total - self.reportedReceived
        guard new > 0 else { return }
        self.reportedReceived = total
        self.eventsReceived.increment(by: new)
    }

    /// What one batch's hand-over to consumers of `channel` did: events taken, events a full
    /// buffer dropped (`dropOldest`, `dropNewest`), a consumer failed for being too slow (`fail`).
    mutating func handedOver(_ tally: DeliveryTally, channel: String?) {
        self.add(tally.accepted, to: self.eventsDelivered, or: "pusher_events_delivered_total", channel: channel)
        self.add(tally.dropped, to: self.eventsDropped, or: "pusher_events_dropped_total", channel: channel)
        self.add(tally.consumersFailed, to: self.consumersFailed, or: "pusher_consumers_failed_total", channel: channel)
    }

    // MARK: Requests

    /// One authorizer call: a subscription's authorization or an encrypted channel's key reload.
    mutating func authorization(channel: String, isKeyReload: Bool, succeeded: Bool, duration: Duration) {
        let kind = isKeyReload ? "key_reload" : "subscribe"
        let result = succeeded ? "success" : "failure"
        var dimensions = ["kind", kind, "result", result]
        self.timer("pusher_authorization_duration_seconds", dimensions).recordNanoseconds(Self.nanoseconds(duration))
        if self.includesChannelLabel { dimensions += ["channel", channel] }
        self.counter("pusher_authorizations_total", dimensions).increment()
    }

    /// One user authenticator call (sign-in).
    mutating func signIn(succeeded: Bool, duration: Duration) {
        let dimensions = ["result", succeeded ? "success" : "failure"]
        self.timer("pusher_sign_in_duration_seconds", dimensions).recordNanoseconds(Self.nanoseconds(duration))
        self.counter("pusher_sign_ins_total", dimensions).increment()
    }

    // MARK: Encrypted channels

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
        self.counter("pusher_decryption_failures_total", dimensions).increment()
    }

    /// The client stopped reading a socket until its consumers catch up (``BufferingPolicy/WhenFull/pauseReading``).
    mutating func readingPaused() {
        self.counter("pusher_reading_paused_total", []).increment()
    }

    mutating func keyReloadStarted(channel: String) {
        self.counter("pusher_key_reloads_total", self.includesChannelLabel ? ["channel", channel] : []).increment()
    }

    // MARK: Instruments

    /// Adds `count` to the unlabelled `counter`, or to the `channel`-labelled counter `label` when
    /// channel labels are on (`*` for consumers of more than one channel).
    private mutating func add(_ count: Int, to counter: Counter?, or label: String, channel: String?) {
        guard count > 0 else { return }
        if let counter {
            counter.increment(by: count)
        } else {
            self.counter(label, ["channel", channel ?? "*"]).increment(by: count)
        }
    }

    /// The counter `label` with `dimensions` (name, value, name, value, …), made on first use.
    private mutating func counter(_ label: String, _ dimensions: [String]) -> Counter {
        let key = Key(label: label, dimensions: dimensions)
        if let counter = self.counters[key] { return counter }
        let counter = Counter(label: label, dimensions: Self.pairs(dimensions), factory: self.factory)
        self.counters[key] = counter
        return counter
    }

    private mutating func timer(_ label: String, _ dimensions: [String]) -> Timer {
        let key = Key(label: label, dimensions: dimensions)
        if let timer = self.timers[key] { return timer }
        let timer = Timer(label: label, dimensions: Self.pairs(dimensions), factory: self.factory)
        self.timers[key] = timer
        return timer
    }

    /// Moves a shared gauge by this client's change (meters take non-negative amounts only).
    private static func move(_ meter: Meter, by delta: Int) {
        if delta > 0 {
            meter.increment(by: Double(delta))
        } else if delta < 0 {
            meter.decrement(by: Double(-delta))
        }
    }

    private static func pairs(_ flat: [String]) -> [(String, String)] {
        stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// `pongTimeout` → `pong_timeout`: label values in the swift-server style.
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
