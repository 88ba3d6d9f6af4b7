// SPDX-License-Identifier: MIT

/// Client events on their way out: per channel, those waiting for the subscription, then one queue
/// in order, paced by a rate limit.
///
/// Per channel, at most `queueLimit` events wait, counting those in the ready queue that would have
/// to wait again should the channel's subscription be lost. An event put back to wait
/// (``holdFirstAgain()``) goes before the events triggered while the channel was not subscribed,
/// which are newer: the channel's order is kept.
struct ClientEventQueue: Sendable {
    struct Queued: Sendable, Hashable {
        var channel: ChannelName
        var text: String
    }

    let queueLimit: Int
    var limiter: RateLimiter
    /// Waiting for their channel's subscription, per channel, in order.
    private(set) var waiting: [ChannelName: [String]] = [:]
    /// Ready to go, in order.
    private(set) var ready: [Queued] = []
    private var readyStart = 0
    /// Events of each channel in `ready`.
    private var readyCounts: [ChannelName: Int] = [:]
    /// How many of each channel's waiting events were put back from `ready` (they come first).
    private var putBack: [ChannelName: Int] = [:]
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
        guard let first = self.first else { return }
        self.readyCounts[first.channel, default: 1] -= 1
        if self.readyCounts[first.channel] == 0 { self.readyCounts[first.channel] = nil }
        self.readyStart += 1
        if self.readyStart == self.ready.count {
            self.ready.removeAll(keepingCapacity: true)
            self.readyStart = 0
        }
    }

    mutating func enqueue(_ text: String, channel: ChannelName) {
        self.ready.append(Queued(channel: channel, text: text))
        self.readyCounts[channel, default: 0] += 1
    }

    /// Whether an event of `channel` may wait for its subscription: fewer than `queueLimit` of the
    /// channel's events wait already (or are ready and would wait again).
    func canHold(channel: ChannelName) -> Bool {
        (self.waiting[channel]?.count ?? 0) + self.readyCounts[channel, default: 0] < self.queueLimit
    }

    /// Adds an event that waits for `channel`'s subscription; false when `queueLimit` events of the
    /// channel wait already (or are ready and would wait again).
    mutating func hold(_ text: String, channel: ChannelName) -> Bool {
        guard self.canHold(channel: channel) else { return false }
        self.waiting[channel, default: []].append(text)
        return true
    }

    /// Puts the first ready event back to wait for its channel (the channel is being subscribed
    /// again), after the others put back and before those triggered since.
    mutating func holdFirstAgain() {
        guard let first = self.first else { return }
        self.removeFirst()
        let position = self.putBack[first.channel, default: 0]
        self.waiting[first.channel, default: []].insert(first.text, at: position)
        self.putBack[first.channel] = position + 1
    }

    /// Moves `channel`'s waiting events to the ready queue; returns whether there were any.
    mutating func release(_ channel: ChannelName) -> Bool {
        self.putBack[channel] = nil
        guard let held = self.waiting.removeValue(forKey: channel), !held.isEmpty else { return false }
        for text in held { self.enqueue(text, channel: channel) }
        return true
    }

    /// Drops every event of `channel`; returns how many.
    mutating func drop(_ channel: ChannelName) -> Int {
        self.putBack[channel] = nil
        self.readyCounts[channel] = nil
        let waiting = self.waiting.removeValue(forKey: channel)?.count ?? 0
        let before = self.ready.count - self.readyStart
        self.ready = self.ready[self.readyStart...].filter { $0.channel != channel }
        self.readyStart = 0
        return waiting + before - self.ready.count
    }
}
