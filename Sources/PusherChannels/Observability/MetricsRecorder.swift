// SPDX-License-Identifier: MIT

import CoreMetrics

/// Tells the metrics backend what the driver's ``ClientMetrics`` decided, after the engine lock is
/// released: the backend's handlers (and its factory, when an instrument is made) never run while
/// client state is locked.
struct MetricsRecorder: Sendable {
    /// Instruments made while recording, for ``ClientMetrics/keep(_:)``.
    struct Made: Sendable {
        var counters: [(ClientMetrics.Update.Key, Counter)] = []
        var timers: [(ClientMetrics.Update.Key, Timer)] = []
        var isEmpty: Bool { self.counters.isEmpty && self.timers.isEmpty }
    }

    private let factory: any MetricsFactory
    /// The unlabelled per-consumer counters; nil with channel labels, so that a metric name never
    /// has two label sets (Prometheus refuses that).
    private let eventsDelivered: Counter?
    private let eventsDropped: Counter?
    private let consumersFailed: Counter?
    private let eventsReceived: Counter
    /// Gauges shared by every client of the factory: each client adds and removes its own share.
    private let connected: Meter
    private let subscriptions: Meter

    /// The recorder of a client with these `metrics` settings, or nil when no metrics backend is bootstrapped (then
    /// the client records nothing at all). Made when the client is: the factory runs outside any lock.
    init?(metrics: PusherClientConfiguration.Metrics) {
        let factory = metrics.factory ?? MetricsSystem.factory
        if factory is NOOPMetricsHandler { return nil }
        self.factory = factory
        self.eventsReceived = Counter(label: "pusher_events_received_total", factory: factory)
        if metrics.includesChannelLabel {
            (self.eventsDelivered, self.eventsDropped, self.consumersFailed) = (nil, nil, nil)
        } else {
            self.eventsDelivered = Counter(label: "pusher_events_delivered_total", factory: factory)
            self.eventsDropped = Counter(label: "pusher_events_dropped_total", factory: factory)
            self.consumersFailed = Counter(label: "pusher_consumers_failed_total", factory: factory)
        }
        self.connected = Meter(label: "pusher_connected", factory: factory)
        self.subscriptions = Meter(label: "pusher_subscriptions", factory: factory)
    }

    /// Records the metric part of `observations`; returns the instruments it had to make.
    func record(_ observations: Observations) -> Made {
        if observations.eventsReceived > 0 { self.eventsReceived.increment(by: observations.eventsReceived) }
        let tally = observations.handedOver
        if tally.accepted > 0 { self.eventsDelivered?.increment(by: tally.accepted) }
        if tally.dropped > 0 { self.eventsDropped?.increment(by: tally.dropped) }
        if tally.consumersFailed > 0 { self.consumersFailed?.increment(by: tally.consumersFailed) }
        var made = Made()
        for update in observations.metrics {
            switch update {
            case .increment(let key, let count, let counter):
                (counter ?? self.counter(key, &made)).increment(by: count)
            case .record(let key, let nanoseconds, let timer):
                (timer ?? self.timer(key, &made)).recordNanoseconds(nanoseconds)
            case .connected(let delta):
                Self.move(self.connected, by: delta)
            case .subscriptions(let delta):
                Self.move(self.subscriptions, by: delta)
            }
        }
        return made
    }

    /// The counter of `key`: made by this recording already, or made now (and kept in `made`).
    private func counter(_ key: ClientMetrics.Update.Key, _ made: inout Made) -> Counter {
        if let counter = made.counters.first(where: { $0.0 == key })?.1 { return counter }
        let counter = Counter(label: key.label, dimensions: Self.pairs(key.dimensions), factory: self.factory)
        made.counters.append((key, counter))
        return counter
    }

    /// The timer of `key`: made by this recording already, or made now (and kept in `made`).
    private func timer(_ key: ClientMetrics.Update.Key, _ made: inout Made) -> Timer {
        if let timer = made.timers.first(where: { $0.0 == key })?.1 { return timer }
        let timer = Timer(label: key.label, dimensions: Self.pairs(key.dimensions), factory: self.factory)
        made.timers.append((key, timer))
        return timer
    }

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
}
