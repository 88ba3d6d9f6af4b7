// SPDX-License-Identifier: MIT

/// Client events on their way out: per channel, those waiting for the subscription (bounded), then
/// one queue in order, paced by a rate limit.
struct ClientEventQueue: Sendable {
    struct Queued: Sendable, Hashable {
        var channel: String
        var text: String
    }

    let queueLimit: Int
    var limiter: RateLimiter
    /// Waiting for their channel's subscription, per channel, in order.
    private(set) var waiting: [String: [String]] = [:]
    /// Ready to go, in order.
    private(set) var ready: [Queued] = []
    private var readyStart = 0
    /// Whether a pacing timer is running.
    var isTimerRunning = false

    init(rateLimit: Int, queueLimit: Int) {
        self.queueLimit = queueLimit
        self.limiter = RateLimiter(limit: rateLimit, per: .seconds(1))
    }

    /// Events waiting for the rate limit.
    var readyCount: Int { self.ready.count - self.readyStart }

    var first: Queued? { self.readyStart < self.ready.count ? self.ready[self.readyStart] : nil }

    mutating func removeFirst() {
        self.readyStart += 1
        if self.readyStart == self.ready.count {
            self.ready.removeAll(keepingCapacity: true)
            self.readyStart = 0
        }
    }

    mutating func enqueue(_ text: String, channel: String) {
        self.ready.append(Queued(channel: channel, text: text))
    }

    /// Adds an event that waits for `channel`'s subscription; false when too many wait already.
    mutating func hold(_ text: String, channel: String) -> Bool {
        guard self.waiting[channel, default: []].count < self.queueLimit else { return false }
        self.waiting[channel, default: []].append(text)
        return true
    }

    /// Puts an event back to wait for its channel (the channel is being subscribed again).
    mutating func holdFirstAgain() {
        guard let first = self.first else { return }
        self.removeFirst()
        self.waiting[first.channel, default: []].append(first.text)
    }

    /// Moves `channel`'s waiting events to the ready queue; returns whether there were any.
    mutating func release(_ channel: String) -> Bool {
        guard let held = self.waiting.removeValue(forKey: channel), !held.isEmpty else { return false }
        for text in held { self.enqueue(text, channel: channel) }
        return true
    }

    /// Drops every event of `channel`; returns how many.
    mutating func drop(_ channel: String) -> Int {
        let waiting = self.waiting.removeValue(forKey: channel)?.count ?? 0
        let before = self.ready.count - self.readyStart
        self.ready = self.ready[self.readyStart...].filter { $0.channel != channel }
        self.readyStart = 0
        return waiting + before - self.ready.count
    }
}
