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
}
