// SPDX-License-Identifier: MIT

import CoreMetrics

/// One change to a swift-metrics instrument, decided under the engine lock and recorded after it
/// (by ``MetricsRecorder``). An instrument the client has not made yet is named by its label and
/// dimensions: it is made outside the lock too, since making one calls the backend's factory.
enum MetricUpdate: Sendable {
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
