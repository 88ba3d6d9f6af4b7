// SPDX-License-Identifier: MIT

import CoreMetrics
import PusherCore

/// The client's swift-metrics instruments, owned by the client actor (never shared).
///
/// The per-event metrics are counted per batch: the actor adds up what one batch delivered or
/// dropped and increments each counter once. Instruments with dimensions are made on first use and
/// kept, so the metrics backend is asked for each one once.
struct ClientMetrics {
    /// One instrument: its label and dimensions.
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
    }

    private let factory: any MetricsFactory
    let includesChannelLabel: Bool
    private let eventsReceived: Counter
    private let eventsDelivered: Counter
    private let eventsDropped: Counter
    private let consumersFailed: Counter
    private let connected: Meter
    private let subscriptions: Meter
    private var counters: [Key: Counter] = [:]
    private var timers: [Key: Timer] = [:]
    /// The engine's running count of received channel events at the last report.
    private var reportedReceived = 0
    private var reportedSubscriptions = -1

    /// The metrics of a client with `options`, or nil when no metrics backend is bootstrapped (then
    /// the client records nothing at all).
    init?(options: PusherClientOptions.Metrics) {
        let factory = options.factory ?? MetricsSystem.factory
        if factory is NOOPMetricsHandler { return nil }
        self.factory = factory
        self.includesChannelLabel = options.includesChannelLabel
        self.eventsReceived = Counter(label: "pusher_events_received_total", factory: factory)
        self.eventsDelivered = Counter(label: "pusher_events_delivered_total", factory: factory)
        self.eventsDropped = Counter(label: "pusher_events_dropped_total", factory: factory)
        self.consumersFailed = Counter(label: "pusher_consumers_failed_total", factory: factory)
        self.connected = Meter(label: "pusher_connected", factory: factory)
        self.subscriptions = Meter(label: "pusher_subscriptions", factory: factory)
        self.connected.set(0)
        self.subscriptions.set(0)
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
        self.connected.set(state.isConnected ? 1 : 0)
    }

    /// The confirmed subscriptions now; reported when the number changed.
    mutating func subscriptionCount(_ count: Int) {
        guard count != self.reportedSubscriptions else { return }
        self.reportedSubscriptions = count
        self.subscriptions.set(count)
    }

    // MARK: Events (once per batch)

    /// The engine's running count of channel events received; the counter grows by the difference.
    mutating func received(total: Int) {
        let new = total - self.reportedReceived
        guard new > 0 else { return }
        self.reportedReceived = total
        self.eventsReceived.increment(by: new)
    }

    /// Events handed to consumers of `channel` in one batch.
    mutating func delivered(_ count: Int, channel: String?) {
        self.add(count, to: self.eventsDelivered, or: "pusher_events_delivered_total", channel: channel)
    }

    /// Events a full buffer dropped (policies `dropOldest` and `dropNewest`) in one batch.
    mutating func dropped(_ count: Int, channel: String?) {
        self.add(count, to: self.eventsDropped, or: "pusher_events_dropped_total", channel: channel)
    }

    /// A consumer failed for falling too far behind (policy `fail`).
    mutating func consumerFailed(channel: String?) {
        self.add(1, to: self.consumersFailed, or: "pusher_consumers_failed_total", channel: channel)
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
        }
        var dimensions = ["reason", reason]
        if self.includesChannelLabel { dimensions += ["channel", failure.channel] }
        self.counter("pusher_decryption_failures_total", dimensions).increment()
    }

    mutating func keyReloadStarted(channel: String) {
        self.counter("pusher_key_reloads_total", self.includesChannelLabel ? ["channel", channel] : []).increment()
    }

    // MARK: Instruments

    /// Adds `count` to the unlabelled `counter`, or to the `channel`-labelled counter `label` when
    /// channel labels are on (`*` for consumers of every channel).
    private mutating func add(_ count: Int, to counter: Counter, or label: String, channel: String?) {
        guard count > 0 else { return }
        if self.includesChannelLabel {
            self.counter(label, ["channel", channel ?? "*"]).increment(by: count)
        } else {
            counter.increment(by: count)
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
