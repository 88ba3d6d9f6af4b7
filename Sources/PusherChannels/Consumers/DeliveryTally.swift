// SPDX-License-Identifier: MIT

/// What buffers did during one batch's hand-over, for the client's metrics; tallies of several
/// consumers add up.
struct DeliveryTally {
    /// Elements the buffers took.
    var accepted = 0
    /// Elements dropped by the `dropOldest` and `dropNewest` policies.
    var dropped = 0
    /// Consumers failed for being too slow (policy `fail`) in this hand-over.
    var consumersFailed = 0
    /// Consumers that went over their limits in this hand-over (policy `pauseReading`): the client
    /// stops reading until they catch up.
    var readingPaused = 0

    static func += (total: inout DeliveryTally, tally: DeliveryTally) {
        total.accepted += tally.accepted
        total.dropped += tally.dropped
        total.consumersFailed += tally.consumersFailed
        total.readingPaused += tally.readingPaused
    }
}
