// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@testable import PusherChannels

@Suite("Timer schedule")
struct TimerScheduleTests {
    @Test("the earliest deadline is what the timer task sleeps until; cancelling or moving a timer changes it")
    func earliest() {
        var schedule = TimerSchedule()
        #expect(schedule.earliest == nil)
        schedule.schedule(.activity(1), at: .seconds(120))
        schedule.schedule(.reconnect(2), at: .seconds(3))
        schedule.schedule(.clientEvents, at: .seconds(7))
        #expect(schedule.earliest == .seconds(3))
        let cancelled = schedule.cancel(.reconnect(2))
        let cancelledAgain = schedule.cancel(.reconnect(2))
        #expect(cancelled)
        #expect(!cancelledAgain)
        #expect(schedule.earliest == .seconds(7))
        // Scheduling an id again moves its deadline: one timer per id.
        schedule.schedule(.activity(1), at: .seconds(5))
        #expect(schedule.count == 2)
        #expect(schedule.deadline(of: .activity(1)) == .seconds(5))
        #expect(schedule.timers.map(\.timer) == [.activity(1), .clientEvents])
    }

    @Test("due timers come out one at a time in deadline order, ties in scheduling order; later ones stay")
    func dueInOrder() {
        var schedule = TimerSchedule()
        schedule.schedule(.pong(1), at: .seconds(30))
        schedule.schedule(.userAuthentication(socketID: "1.1"), at: .seconds(10))
        schedule.schedule(
            .authorization(channel: ChannelName(unchecked: "private-b"), socketID: "1.1"), at: .seconds(10))
        schedule.schedule(.handshake(2), at: .seconds(9))
        schedule.schedule(.close(1), at: .seconds(31))
        // Moving a timer makes it the latest scheduled among equal deadlines.
        schedule.schedule(.userAuthentication(socketID: "1.1"), at: .seconds(10))
        let early = schedule.removeFirstDue(at: .seconds(8))
        #expect(early == nil)
        var fired: [TimerID] = []
        while let timer = schedule.removeFirstDue(at: .seconds(30)) { fired.append(timer) }
        #expect(
            fired == [
                .handshake(2), .authorization(channel: ChannelName(unchecked: "private-b"), socketID: "1.1"),
                .userAuthentication(socketID: "1.1"), .pong(1),
            ])
        #expect(schedule.timers.map(\.timer) == [.close(1)])
    }

    @Test("a timer cancelled while others fire does not fire")
    func cancelledWhileFiring() {
        var schedule = TimerSchedule()
        schedule.schedule(.handshake(1), at: .seconds(10))
        schedule.schedule(.reconnect(2), at: .seconds(10))
        let first = schedule.removeFirstDue(at: .seconds(10))
        #expect(first == .handshake(1))
        // Handling the first one cancelled the second.
        schedule.cancel(.reconnect(2))
        let second = schedule.removeFirstDue(at: .seconds(10))
        #expect(second == nil)
        #expect(schedule.isEmpty)
    }

    @Test("a timer moved later does not fire at its old deadline; moved earlier, it fires once, at the new one")
    func movedTimerFiresOnceAtItsNewDeadline() {
        var schedule = TimerSchedule()
        schedule.schedule(.activity(1), at: .seconds(5))
        schedule.schedule(.pong(1), at: .seconds(10))
        schedule.schedule(.activity(1), at: .seconds(20))
        #expect(schedule.earliest == .seconds(10))
        let atOldDeadline = schedule.removeFirstDue(at: .seconds(5))
        #expect(atOldDeadline == nil)
        schedule.schedule(.close(1), at: .seconds(30))
        schedule.schedule(.close(1), at: .seconds(1))
        var fired: [TimerID] = []
        while let timer = schedule.removeFirstDue(at: .seconds(60)) { fired.append(timer) }
        #expect(fired == [.close(1), .pong(1), .activity(1)])
        #expect(schedule.isEmpty)
        #expect(schedule.earliest == nil)
    }

    @Test("30,000 authorizer timeouts: equal deadlines fire in scheduling order, the cancelled ones never")
    func manyTimers() {
        var schedule = TimerSchedule()
        let channels = (0..<30_000).map {
            TimerID.authorization(channel: ChannelName(unchecked: "private-\($0)"), socketID: "1.1")
        }
        // Three waves of 10,000 calls, each due 10 s after it started.
        for (index, timer) in channels.enumerated() {
            schedule.schedule(timer, at: .seconds(10 + index / 10_000))
        }
        // Every odd call was answered.
        for timer in channels.indices.filter({ !$0.isMultiple(of: 2) }).map({ channels[$0] }) {
            schedule.cancel(timer)
        }
        #expect(schedule.count == 15_000)
        #expect(schedule.earliest == .seconds(10))
        var fired: [TimerID] = []
        while let timer = schedule.removeFirstDue(at: .seconds(11)) { fired.append(timer) }
        let expected = channels.indices.filter { $0.isMultiple(of: 2) && $0 < 20_000 }.map { channels[$0] }
        #expect(fired == expected)
        #expect(schedule.count == 5_000)
        #expect(schedule.earliest == .seconds(12))
    }

    @Test("a timer moved again and again leaves the schedule within twice the number of timers")
    func movedTimersStayBounded() {
        var schedule = TimerSchedule()
        schedule.schedule(.reconnect(1), at: .seconds(1_000))
        // The activity timer moves on every inbound message; each move leaves a stale entry.
        var largest = 0
        for message in 0..<100_000 {
            schedule.schedule(.activity(1), at: .milliseconds(120_000 + message))
            largest = max(largest, schedule.storedEntryCount)
        }
        #expect(largest <= 2 * 2 + 17)
        // So do calls that start and are answered.
        for call in 0..<10_000 {
            let timer = TimerID.userAuthentication(socketID: "1.\(call)")
            schedule.schedule(timer, at: .seconds(5_000))
            schedule.cancel(timer)
        }
        #expect(schedule.storedEntryCount <= 2 * schedule.count + 17)
        #expect(schedule.timers.map(\.timer) == [.activity(1), .reconnect(1)])
        #expect(schedule.deadline(of: .activity(1)) == .milliseconds(219_999))
    }

    @Test(
        "random schedules, moves, cancels and firings agree with a simple reference",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func agreesWithReference(seed: UInt64) {
        var random = ChaosTests.SeededGenerator(state: seed)
        var schedule = TimerSchedule()
        var reference = ReferenceSchedule()
        // Few ids and few distinct deadlines: many moves, cancels of scheduled timers and ties.
        let ids: [TimerID] =
            (0..<6).map { Generation($0) }.flatMap { generation in
                [.handshake(generation), .activity(generation), .pong(generation), .close(generation)]
            }
            + (0..<40).map { .authorization(channel: ChannelName(unchecked: "private-\($0)"), socketID: "1.1") }
            + [.clientEvents, .userAuthentication(socketID: "1.1")]
        var now = Duration.zero
        for _ in 0..<10_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let timer = ids.randomElement(using: &random)!
                let deadline = now + .seconds(Int.random(in: 0..<8, using: &random))
                schedule.schedule(timer, at: deadline)
                reference.schedule(timer, at: deadline)
            case 5..<8:
                let timer = ids.randomElement(using: &random)!
                let cancelled = schedule.cancel(timer)
                #expect(cancelled == reference.cancel(timer))
            default:
                now += .seconds(Int.random(in: 0..<3, using: &random))
                while true {
                    let fired = schedule.removeFirstDue(at: now)
                    #expect(fired == reference.removeFirstDue(at: now))
                    guard fired != nil else { break }
                    // Handling a timer may cancel another one.
                    if Bool.random(using: &random), let victim = reference.timers.randomElement(using: &random) {
                        let cancelled = schedule.cancel(victim.timer)
                        #expect(cancelled == reference.cancel(victim.timer))
                    }
                }
            }
            #expect(schedule.earliest == reference.timers.first?.deadline)
            #expect(schedule.count == reference.timers.count)
            #expect(schedule.storedEntryCount <= 2 * schedule.count + 17)
        }
        #expect(schedule.timers.map(\.timer) == reference.timers.map(\.timer))
        #expect(schedule.timers.map(\.deadline) == reference.timers.map(\.deadline))
    }

    /// The rules spelled out as plainly as possible: a list in scheduling order, searched in full.
    struct ReferenceSchedule {
        /// Every scheduled timer, in the order it was (last) scheduled.
        private var scheduled: [(timer: TimerID, deadline: Duration)] = []

        /// Earliest deadline first; equal deadlines in scheduling order.
        var timers: [(timer: TimerID, deadline: Duration)] {
            self.scheduled.enumerated().sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
        }

        mutating func schedule(_ timer: TimerID, at deadline: Duration) {
            self.scheduled.removeAll { $0.timer == timer }
            self.scheduled.append((timer, deadline))
        }

        mutating func cancel(_ timer: TimerID) -> Bool {
            let before = self.scheduled.count
            self.scheduled.removeAll { $0.timer == timer }
            return self.scheduled.count != before
        }

        mutating func removeFirstDue(at now: Duration) -> TimerID? {
            guard let first = self.timers.first, first.deadline <= now else { return nil }
            _ = self.cancel(first.timer)
            return first.timer
        }
    }
}
