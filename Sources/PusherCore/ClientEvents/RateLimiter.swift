// SPDX-License-Identifier: MIT

/// At most `limit` permits in any window of `interval` (a sliding window over the last `limit`
/// permits). Pure: time comes in as an offset.
package struct RateLimiter: Sendable, Hashable {
    package let limit: Int
    package let interval: Duration
    private var granted: [Duration] = []

    package init(limit: Int, per interval: Duration) {
        self.limit = max(1, limit)
        self.interval = interval
    }

    /// Grants a permit at `now` and returns nil, or returns how long to wait before asking again.
    package mutating func permit(at now: Duration) -> Duration? {
        self.granted.removeAll { now - $0 >= self.interval }
        guard self.granted.count < self.limit else {
            return self.granted[0] + self.interval - now
        }
        self.granted.append(now)
        return nil
    }
}
