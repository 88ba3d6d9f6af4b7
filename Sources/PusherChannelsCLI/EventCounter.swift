// SPDX-License-Identifier: MIT

import Synchronization

/// Counts the events of a `listen` run, from whichever task consumes them, and times the span from
/// the first to the last one.
///
/// Counting an event is one atomic increment; the clock is read (under a lock) for the first event
/// and for the one that reaches the limit, and for every event when there is no limit (any may be
/// the last).
final class EventCounter: Sendable {
    /// Events taken so far, including those past the limit (which do not count).
    private let taken = Atomic<Int>(0)
    private let span = Mutex<Span>(Span())

    /// When the first and the last counted events were taken.
    private struct Span {
        var first: ContinuousClock.Instant?
        var last: ContinuousClock.Instant?
    }

    init() {}

    /// Counts one event unless `limit` events were counted already; returns whether it counts, and
    /// whether it is the last one (the limit is reached, or was before it).
    func record(limit: Int?) -> (takes: Bool, isLast: Bool) {
        let count = self.taken.add(1, ordering: .relaxed).newValue
        if let limit, count > limit { return (false, true) }
        let isLast = count == limit
        if count == 1 || isLast || limit == nil {
            let now = ContinuousClock.now
            // Two tasks may get here in either order: the span is the earliest and the latest time.
            self.span.withLock { span in
                span.first = min(span.first ?? now, now)
                span.last = max(span.last ?? now, now)
            }
        }
        return (true, isLast)
    }

    /// Events counted (at most `limit`).
    func count(limit: Int?) -> Int {
        min(self.taken.load(ordering: .relaxed), limit ?? .max)
    }

    /// The count, the span's seconds and the rate, for `--stats`.
    func summary(limit: Int?) -> String {
        let count = self.count(limit: limit)
        var seconds = 0.0
        if case (let first?, let last?) = self.span.withLock({ ($0.first, $0.last) }) {
            let (whole, fraction) = (last - first).components
            seconds = Double(whole) + Double(fraction) / 1e18
        }
        let rate = seconds > 0 ? Double(count) / seconds : 0
        return "events=\(count) seconds=\(Self.format(seconds)) rate=\(Self.format(rate))/s"
    }

    private static func format(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }
}
