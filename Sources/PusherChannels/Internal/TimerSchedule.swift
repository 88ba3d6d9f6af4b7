// SPDX-License-Identifier: MIT

import HeapModule
import PusherCore

/// Every timer the engine asked for: one deadline per ``TimerID``, on the client's clock (offsets
/// like the engine's `at:` inputs). A pure value inside the client's driver (under its lock); its timer task sleeps
/// until ``earliest`` and the driver then fires what is due, in deadline order (timers with the same
/// deadline in the order they were scheduled).
///
/// Besides a handful of connection timers there is one timer per authorizer call under way, so a
/// client subscribing tens of thousands of private channels holds as many. Scheduling, cancelling
/// and firing cost O(log n): the deadlines sit in a binary heap, and a cancelled or moved timer
/// leaves its old entry there, skipped once it reaches the top (lazy deletion). The heap is
/// rebuilt from the live timers whenever such stale entries outnumber them, so it never holds more
/// than about twice as many entries as there are timers.
struct TimerSchedule: Sendable {
    /// A deadline as scheduled. Ordered by deadline, then by when it was scheduled.
    private struct Entry: Comparable, Sendable {
        var deadline: Duration
        /// When it was scheduled, relative to the others: breaks ties between equal deadlines, and
        /// tells the live entry of a timer from the stale ones it left in the heap. Unique.
        var order: UInt64
        var timer: TimerID

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.order == rhs.order
        }
    }

    /// The live entry of each scheduled timer.
    private var entries: [TimerID: Entry] = [:]
    /// The live entries and stale ones (of timers since cancelled or moved). Its minimum, if any,
    /// is always live: every mutation drops the stale entries that reach the top.
    private var heap = Heap<Entry>()
    private var lastOrder: UInt64 = 0

    var isEmpty: Bool { self.entries.isEmpty }

    var count: Int { self.entries.count }

    /// How many entries the heap holds, stale ones included (for the tests of its bound).
    var storedEntryCount: Int { self.heap.count }

    /// The deadline of `timer`, if it is scheduled.
    func deadline(of timer: TimerID) -> Duration? { self.entries[timer]?.deadline }

    /// The earliest deadline, or nil when nothing is scheduled.
    var earliest: Duration? { self.heap.min?.deadline }

    /// Every timer with its deadline, earliest first.
    var timers: [(timer: TimerID, deadline: Duration)] {
        self.entries.values.sorted().map { ($0.timer, $0.deadline) }
    }

    /// Schedules `timer` at `deadline`, replacing its earlier deadline if it had one (it then
    /// counts as scheduled last among timers with the same deadline).
    mutating func schedule(_ timer: TimerID, at deadline: Duration) {
        self.lastOrder &+= 1
        let entry = Entry(deadline: deadline, order: self.lastOrder, timer: timer)
        self.entries[timer] = entry
        self.heap.insert(entry)
        self.dropStaleEntries()
    }

    /// Removes `timer`; returns whether it was scheduled.
    @discardableResult
    mutating func cancel(_ timer: TimerID) -> Bool {
        guard self.entries.removeValue(forKey: timer) != nil else { return false }
        self.dropStaleEntries()
        return true
    }

    /// Removes and returns the earliest timer if it is due at `now` (its deadline is not after it).
    /// Call it again after handling each one: handling a timer may cancel or schedule others.
    mutating func removeFirstDue(at now: Duration) -> TimerID? {
        guard let first = self.heap.min, first.deadline <= now else { return nil }
        self.heap.removeMin()
        self.entries[first.timer] = nil
        self.dropStaleEntries()
        return first.timer
    }

    private func isLive(_ entry: Entry) -> Bool {
        self.entries[entry.timer]?.order == entry.order
    }

    /// Restores the invariants: the heap's minimum is live, and stale entries are at most as many
    /// as live ones (plus a few), so it stays within about twice the number of timers.
    private mutating func dropStaleEntries() {
        if self.heap.count > 2 * self.entries.count + 16 {
            self.heap = Heap(self.entries.values)
            return
        }
        while let first = self.heap.min, !self.isLive(first) {
            self.heap.removeMin()
        }
    }
}
