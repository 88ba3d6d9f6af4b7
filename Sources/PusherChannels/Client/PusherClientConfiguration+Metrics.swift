// SPDX-License-Identifier: MIT

import CoreMetrics

extension PusherClientConfiguration {
    /// What the client reports through swift-metrics.
    ///
    /// Nothing is recorded, and nothing costs, until the application bootstraps a metrics backend
    /// (`MetricsSystem.bootstrap(_:)`, or `withMetricsFactory(_:_:)` around the client's creation)
    /// or passes a ``factory``. Every metric is named `pusher_…`; see the "Metrics and tracing"
    /// article for the list.
    public struct Metrics: Sendable {
        /// Where metrics go. `nil` (the default) uses `MetricsSystem.factory` as it is when the
        /// client is created.
        public var factory: (any MetricsFactory)?
        /// Whether per-channel metrics (events delivered and dropped, consumers failed,
        /// authorizations, decryption failures, key reloads) carry a `channel` dimension. Off by
        /// default: every channel name becomes a time series, so turn it on only for a small, fixed
        /// set of channels. Clients sharing one metrics backend should agree on it: some backends
        /// (swift-prometheus among them) refuse a name seen both with and without the label.
        public var includesChannelLabel: Bool

        public init(factory: (any MetricsFactory)? = nil, includesChannelLabel: Bool = false) {
            self.factory = factory
            self.includesChannelLabel = includesChannelLabel
        }
    }
}
