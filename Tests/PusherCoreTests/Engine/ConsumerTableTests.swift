// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("Consumer table")
struct ConsumerTableTests {
    @Test("consumers are numbered in order and counted per channel; removal forgets them once")
    func addAndRemove() {
        var table = ConsumerTable()
        let a = table.add(.channels(["x"], eventName: nil))
        let b = table.add(.presence("x"))
        let c = table.add(.all)
        #expect([a, b, c] == [ConsumerID(1), ConsumerID(2), ConsumerID(3)])
        #expect(table.count(on: "x") == 2)
        let removed = [table.remove(a), table.remove(a)]
        #expect(removed == [.channels(["x"], eventName: nil), nil])
        #expect(table.count(on: "x") == 1)
        let removedPresence = table.remove(b)
        #expect(removedPresence == .presence("x"))
        #expect(table.channels["x"] == nil, "an empty channel entry is dropped")
    }

    @Test("one number space: numbers made for the driver's consumers are never given again, even after removeAll")
    func oneNumberSpace() {
        var table = ConsumerTable()
        let observer = table.makeID()
        let given = table.add(.all, id: table.makeID())
        let next = table.add(.channels(["x"], eventName: nil))
        #expect([observer, given, next] == [ConsumerID(1), ConsumerID(2), ConsumerID(3)])
        #expect(table.removeAll() == [given, next])
        #expect(table.makeID() == ConsumerID(4))
    }

    @Test("a failed channel ends its single-channel consumers; consumers of several channels keep the rest")
    func removeChannel() {
        var table = ConsumerTable()
        let single = table.add(.channels(["x"], eventName: nil))
        let several = table.add(.channels(["x", "y"], eventName: "e"))
        let presence = table.add(.presence("x"))
        let ended = table.removeChannel("x")
        #expect(ended == [single, presence])
        #expect(table.count(on: "y") == 1)
        let rest = table.remove(several)
        #expect(rest == .channels(["y"], eventName: "e"))
    }

    @Test("removeAll returns every consumer in order and leaves an empty table")
    func removeAll() {
        var table = ConsumerTable()
        _ = table.add(.user(eventName: nil))
        _ = table.add(.channels(["x"], eventName: nil))
        let all = table.removeAll()
        #expect(all == [ConsumerID(1), ConsumerID(2)])
        #expect(table.user.isEmpty && table.channels.isEmpty)
    }
}
