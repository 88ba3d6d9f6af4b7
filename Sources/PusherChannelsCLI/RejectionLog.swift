// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// The standard error lines of `webhooks` about rejected requests and refused connections: each
/// cut to ``maximumCharacters`` (they hold what a sender chose: paths, keys), at most
/// ``linesPerSecond`` a second; the lines over that are counted and told as one
/// "N more rejected requests" line at the next line written or at ``finish()``.
final class RejectionLog: Sendable {
    static let maximumCharacters = 200

    private struct State {
        var windowStart: ContinuousClock.Instant
        var linesInWindow = 0
        var suppressed = 0
    }

    let linesPerSecond: Int
    /// The command that writes, and what a line tells of (for the summary line).
    private let command: String
    private let noun: String
    private let clock = ContinuousClock()
    private let state: NIOLockedValueBox<State>

    init(linesPerSecond: Int = 10, command: String = "webhooks", noun: String = "rejected request") {
        self.linesPerSecond = linesPerSecond
        self.command = command
        self.noun = noun
        self.state = NIOLockedValueBox(State(windowStart: self.clock.now))
    }

    /// Writes `line` (cut) unless this second's lines were written already; then it is counted.
    func log(_ line: String) {
        let now = self.clock.now
        let (writes, summary) = self.state.withLockedValue { state -> (Bool, Int) in
            var summary = 0
            if now - state.windowStart >= .seconds(1) {
                (state.windowStart, state.linesInWindow, summary, state.suppressed) = (now, 0, state.suppressed, 0)
            }
            guard state.linesInWindow < self.linesPerSecond else {
                state.suppressed += 1
                return (false, summary)
            }
            state.linesInWindow += 1
            return (true, summary)
        }
        if summary > 0 { self.writeSummary(summary) }
        // Cut once escaped: an escape is longer than the character it stands for.
        if writes { Output.error(Self.cut(TerminalText.escaped(line))) }
    }

    /// Writes the count of lines not written yet, if any (at exit).
    func finish() {
        let summary = self.state.withLockedValue { state in
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        if summary > 0 { self.writeSummary(summary) }
    }

    private func writeSummary(_ count: Int) {
        Output.error(
            "\(self.command): \(count) more \(self.noun)\(count == 1 ? "" : "s") (not logged: over \(self.linesPerSecond) lines a second)"
        )
    }

    /// `line`, at most ``maximumCharacters`` characters long (cut ones end with "…").
    static func cut(_ line: String) -> String {
        guard line.count > Self.maximumCharacters else { return line }
        return line.prefix(Self.maximumCharacters - 1) + "…"
    }
}
