// SPDX-License-Identifier: MIT

/// What the driver has to tell the logger, the metrics backend and the tracer, gathered under the
/// engine lock and taken out by ``PusherClient/withEngine(_:)`` in the same locked section, to be
/// told once the lock is released: the user's handlers never run while client state is locked.
///
/// The per-batch figures (events received, handed over, dropped, consumers failed) are sums, not
/// list entries: a read's hand-over adds to them without allocating.
struct Observations: Sendable {
    /// Channel events received, not yet counted.
    var eventsReceived = 0
    /// Events handed over, dropped and consumers failed (without a channel label), not yet counted.
    var handedOver = DeliveryTally()
    /// Other instrument changes, in order.
    var metrics: [MetricUpdate] = []
    /// Log lines and span ends, in order.
    var list: [Observation] = []

    var isEmpty: Bool {
        self.eventsReceived == 0 && self.metrics.isEmpty && self.list.isEmpty && self.handedOver.accepted == 0
            && self.handedOver.dropped == 0 && self.handedOver.consumersFailed == 0
    }
}
