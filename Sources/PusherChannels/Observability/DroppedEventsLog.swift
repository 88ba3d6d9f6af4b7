// SPDX-License-Identifier: MIT

/// Paces the log lines about events that `dropOldest` and `dropNewest` discard: under a flood, one
/// line per ``interval`` of the client's clock at most, each counting every event dropped since the
/// previous line. Owned by the client actor.
struct DroppedEventsLog {
    /// The shortest time between two lines.
    static let interval = Duration.seconds(10)

    /// Events dropped since the last line.
    private var unreported = 0
    /// The clock reading from which the next line may be logged; nil before the first.
    private var nextLine: Duration?

    /// Counts `count` dropped events at `now`; returns how many to report when a line is due now.
    mutating func dropped(_ count: Int, at now: Duration) -> Int? {
        self.unreported += count
        if let nextLine = self.nextLine, now < nextLine { return nil }
        defer { self.unreported = 0 }
        self.nextLine = now + Self.interval
        return self.unreported
    }
}
