// SPDX-License-Identifier: MIT

import PusherCore

/// Every timer the engine asked for: one deadline per ``TimerID``, on the client's clock (offsets
/// like the engine's `at:` inputs). A pure value owned by the client actor; its timer task sleeps
/// until ``earliest`` and the actor then fires what is due, in deadline order (timers with the same
/// deadline in the order they were scheduled).
///
/// There are only ever a handful of timers (one liveness timer per socket, one per close, one
/// reconnect delay, the client-event pacing, one per authorizer call under way), so the earliest
/// is found by a scan.
struct TimerSchedule: Sendable {
    private struct Entry: Sendable {
        var deadline: Duration
        /// When it was scheduled, relative to the others: breaks ties between equal deadlines.
        var order: UInt64
    }

    private var entries: [TimerID: Entry] = [:]
    private var lastOrder: UInt64 = 0

    var isEmpty: Bool { self.entries.isEmpty }

    var count: Int { self.entries.count }

    /// The deadline of `timer`, if it is scheduled.
    func deadline(of timer: TimerID) -> Duration? { self.entries[timer]?.deadline }

    /// The earliest deadline, or nil when nothing is scheduled.
    var earliest: Duration? { self.first?.value.deadline }

    /// Every timer with its deadline, earliest first.
    var timers: [(timer: TimerID, deadline: Duration)] {
        self.entries.sorted { Self.precedes($0.value, $1.value) }.map { ($0.key, $0.value.deadline) }
    }

    /// Schedules `timer` at `deadline`, replacing its earlier deadline if it had one.
    mutating func schedule(_ timer: TimerID, at deadline: Duration) {
        self.lastOrder &+= 1
        self.entries[timer] = Entry(deadline: deadline, order: self.lastOrder)
    }

    /// Removes `timer`; returns whether it was scheduled.
    @discardableResult
    mutating func cancel(_ timer: TimerID) -> Bool {
        self.entries.removeValue(forKey: timer) != nil
    }

    /// Removes and returns the earliest timer if it is due at `now` (its deadline is not after it).
    /// Call it again after handling each one: handling a timer may cancel or schedule others.
    mutating func removeFirstDue(at now: Duration) -> TimerID? {
        guard let first = self.first, first.value.deadline <= now else { return nil }
        self.entries[first.key] = nil
        return first.key
    }

    private var first: (key: TimerID, value: Entry)? {
        self.entries.min { Self.precedes($0.value, $1.value) }
    }

    private static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
    }
}
