// SPDX-License-Identifier: MIT

/// Capped, jittered exponential backoff between reconnection attempts.
///
/// The delay before attempt *n* (counting from 1) is `initialDelay × multiplier^(n-1)`, capped at
/// `maximumDelay`, then shortened by a random fraction of up to `jitter` so that many clients
/// dropped at once do not come back at once.
///
/// The counter starts afresh only after a connection proved healthy: it stayed up for
/// `resetAfter`, or it delivered an event of a subscribed channel to its consumers and stayed up for
/// 2 seconds (or `resetAfter` when shorter). Other frames (pings, errors, events of no
/// channel, a cache channel's replay followed by a close) prove nothing. A server that accepts the
/// handshake and closes at once is therefore met with growing delays and, with `maximumAttempts`,
/// a final failure. An immediate reconnect (close codes 4200–4299, or a pong timeout) happens at once
/// only the first time in a row; a second one before the connection proved healthy backs off. Every
/// reconnection, whatever its cause, counts towards `maximumAttempts`.
///
/// Defaults: 1 s, doubling, capped at 30 s, 20 % jitter, unlimited attempts, reset after 10 s up.
public struct Backoff: Sendable, Hashable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// The factor from one delay to the next; below 1 counts as 1 (NaN is refused at connect).
    public var multiplier: Double
    /// The largest fraction (0…1) removed from a delay at random; outside that range it counts as
    /// the nearer end (NaN is refused at connect).
    public var jitter: Double
    /// How many reconnection attempts in a row before giving up; `nil` never gives up.
    public var maximumAttempts: Int?
    /// How long a connection must stay up (without delivering a channel event) before the backoff
    /// starts afresh after it ends.
    public var resetAfter: Duration

    /// How long a connection that delivered an event of a subscribed channel must stay up before it
    /// counts as healthy: 2 seconds, or ``resetAfter`` when that is shorter.
    package var settleTime: Duration { min(self.resetAfter, .seconds(2)) }

    public init(
        initialDelay: Duration = .seconds(1),
        maximumDelay: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Double = 0.2,
        maximumAttempts: Int? = nil,
        resetAfter: Duration = .seconds(10)
    ) {
        self.resetAfter = resetAfter
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
    }

    /// The delay before attempt `attempt` (1-based), given a uniform random sample in `0..<1`.
    package func delay(forAttempt attempt: Int, random: Double) -> Duration {
        let maximum = Self.seconds(self.maximumDelay)
        var seconds = Self.seconds(self.initialDelay)
        var step = 1
        while step < attempt && seconds < maximum {
            seconds *= max(self.multiplier, 1)
            step += 1
        }
        seconds = min(seconds, maximum)
        let jitter = min(max(self.jitter, 0), 1)
        let sample = min(max(random, 0), 1)
        seconds *= 1 - jitter * sample
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
