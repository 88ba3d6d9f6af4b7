// SPDX-License-Identifier: MIT

/// Paces the log lines about something that can come in floods (events a buffering policy dropped,
/// consumers failed as too slow): one line per ``interval`` of the client's clock at most, each
/// counting every occurrence since the previous line. Kept in the client's driver, under its lock.
struct LogPacer: Sendable {
    /// The shortest time between two lines.
    static let interval = Duration.seconds(10)

    /// Occurrences since the last line.
    private var unreported = 0
    /// The clock reading from which the next line may be logged; nil before the first.
    private var nextLine: Duration?

    /// Counts `count` occurrences at `now`; returns how many to report when a line is due now.
    mutating func count(_ count: Int, at now: Duration) -> Int? {
        self.unreported += count
        if let nextLine = self.nextLine, now < nextLine { return nil }
        defer { self.unreported = 0 }
        self.nextLine = now + Self.interval
        return self.unreported
    }
}
