// SPDX-License-Identifier: MIT

import PusherChannels

/// How long a consumer that fell behind (`--when-full fail`, `consumerTooSlow`) waits before it
/// subscribes again: the client's reconnection backoff (1 s doubling to 30 s, with jitter, by
/// default), started afresh once a consumer kept up for the backoff's `resetAfter`. Without it, a
/// consumer that cannot keep up would subscribe again at once, over and over, each time with one
/// auth request per private channel.
struct ResubscribeBackoff {
    let backoff: Backoff
    private var attempt = 0

    init(_ backoff: Backoff) {
        self.backoff = backoff
    }

    /// The delay before subscribing again, after a consumer that had been running for `lifetime`
    /// fell behind; `random` is a uniform sample in `0..<1` for the jitter.
    mutating func delay(afterRunningFor lifetime: Duration, random: Double) -> Duration {
        if lifetime >= self.backoff.resetAfter { self.attempt = 0 }
        self.attempt += 1
        return self.backoff.delay(forAttempt: self.attempt, random: random)
    }
}
