// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

/// What the driver has to tell the logger, the metrics backend and the tracer, gathered under the
/// engine lock and taken out by ``PusherClient/withEngine(_:)`` in the same locked section, to be
/// told once the lock is released: the user's handlers never run while client state is locked.
///
/// The per-batch figures (events received, handed over, dropped, consumers failed) are sums, not
/// list entries: a read's hand-over adds to them without allocating.
struct Observations: Sendable {
    /// Something the driver decided to tell the user's logger or tracer. Decided
    /// under the engine lock, told after it is released (see ``Observations``): the user's handlers
    /// never run while the client's state is locked, so they may call back into the client.
    enum Entry: Sendable {
        case log(Logger.Level, Logger.Message, Logger.Metadata)
        /// Connection-attempt spans to end: marked failed with the error if any, given the socket id
        /// if connected, marked cancelled if given up.
        case endSpans([any Span], error: PusherError?, socketID: String?, cancelled: Bool)
    }

    /// Channel events received, not yet counted.
    var eventsReceived = 0
    /// Events handed over, dropped and consumers failed (without a channel label), not yet counted.
    var handedOver = DeliveryTally()
    /// Other instrument changes, in order.
    var metrics: [ClientMetrics.Update] = []
    /// Log lines and span ends, in order.
    var list: [Entry] = []

    var isEmpty: Bool {
        self.eventsReceived == 0 && self.metrics.isEmpty && self.list.isEmpty && self.handedOver.accepted == 0
            && self.handedOver.dropped == 0 && self.handedOver.consumersFailed == 0
    }
}
