// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("Client event queue")
struct ClientEventQueueTests {
    @Test("waiting events are bounded per channel and released in order")
    func holdAndRelease() {
        var queue = ClientEventQueue(rateLimit: 10, queueLimit: 2)
        let held = [
            queue.hold("1", channel: "a"), queue.hold("2", channel: "a"), queue.hold("3", channel: "a"),
            queue.hold("x", channel: "b"),
        ]
        #expect(held == [true, true, false, true])
        let released = [queue.release("a"), queue.release("a")]
        #expect(released == [true, false])
        #expect(queue.first == .init(channel: "a", text: "1"))
        queue.removeFirst()
        #expect(queue.first == .init(channel: "a", text: "2"))
    }

    @Test("dropping a channel counts what was waiting and what was ready, and keeps the others in order")
    func drop() {
        var queue = ClientEventQueue(rateLimit: 10, queueLimit: 10)
        queue.enqueue("a1", channel: "a")
        queue.enqueue("b1", channel: "b")
        queue.enqueue("a2", channel: "a")
        _ = queue.hold("a3", channel: "a")
        queue.removeFirst()
        let dropped = queue.drop("a")
        #expect(dropped == 2)
        #expect(queue.first == .init(channel: "b", text: "b1"))
        queue.removeFirst()
        #expect(queue.first == nil)
    }

    @Test("an event put back waits for its channel again")
    func holdFirstAgain() {
        var queue = ClientEventQueue(rateLimit: 10, queueLimit: 10)
        queue.enqueue("a1", channel: "a")
        queue.holdFirstAgain()
        #expect(queue.first == nil)
        #expect(queue.waiting["a"] == ["a1"])
    }

    @Test("events put back after a lost subscription keep their order and count against the channel's cap")
    func putBackKeepsOrderAndCap() {
        var queue = ClientEventQueue(rateLimit: 10, queueLimit: 3)
        queue.enqueue("a1", channel: "a")
        queue.enqueue("b1", channel: "b")
        queue.enqueue("a2", channel: "a")
        // The subscription of "a" is lost: a new event waits, and the cap counts the two ready ones.
        let held = [queue.hold("a3", channel: "a"), queue.hold("a4", channel: "a")]
        #expect(held == [true, false])
        queue.holdFirstAgain()
        queue.removeFirst()
        queue.holdFirstAgain()
        #expect(queue.first == nil)
        #expect(queue.waiting["a"] == ["a1", "a2", "a3"])
        let heldWhenFull = queue.hold("a4", channel: "a")
        #expect(!heldWhenFull)
        let released = queue.release("a")
        #expect(released)
        var sent: [String] = []
        while let next = queue.first {
            sent.append(next.text)
            queue.removeFirst()
        }
        #expect(sent == ["a1", "a2", "a3"])
        // Once sent, the channel has room again.
        let heldAfterSending = queue.hold("a4", channel: "a")
        #expect(heldAfterSending)
    }
}
