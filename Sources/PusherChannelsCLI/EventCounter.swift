// SPDX-License-Identifier: MIT

/// Counts events and times the span from the first to the last one.
struct EventCounter {
    private(set) var count = 0
    private var first: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?

    /// Records one event; returns true when `limit` is reached. The clock is read for the first
    /// event and for the one that reaches the limit; without a limit any event may be the last, so
    /// it is read for each.
    mutating func record(limit: Int?) -> Bool {
        self.count += 1
        let reached = limit.map { self.count >= $0 } ?? false
        if self.first == nil || reached || limit == nil {
            let now = ContinuousClock.now
            if self.first == nil { self.first = now }
            self.last = now
        }
        return reached
    }

    /// Whether `limit` events were recorded (never without a limit).
    func hasReached(limit: Int?) -> Bool {
        limit.map { self.count >= $0 } ?? false
    }

    var summary: String {
        var seconds = 0.0
        if let first = self.first, let last = self.last {
            let (whole, fraction) = (last - first).components
            seconds = Double(whole) + Double(fraction) / 1e18
        }
        let rate = seconds > 0 ? Double(self.count) / seconds : 0
        return "events=\(self.count) seconds=\(Self.format(seconds)) rate=\(Self.format(rate))/s"
    }

    private static func format(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }
}
