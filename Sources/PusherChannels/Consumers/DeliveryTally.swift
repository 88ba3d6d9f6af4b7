// SPDX-License-Identifier: MIT

/// What full buffers did during one batch's hand-over, for the client's metrics.
struct DeliveryTally {
    /// Elements the buffer took.
    var accepted = 0
    /// Elements dropped by the `dropOldest` and `dropNewest` policies.
    var dropped = 0
    /// Whether the consumer was failed for being too slow (policy `fail`) in this hand-over.
    var failedTooSlow = false
}
