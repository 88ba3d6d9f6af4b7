// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore
import Testing

/// `pauseReading`: a buffer over its limits keeps every element and holds the client's flow gate
/// until its consumer has taken it down to half of them, or it ends.
@Suite("Flow control: Consumer and FlowGate", .timeLimit(.minutes(1)))
struct FlowGateTests {
    static func buffer(limit: Int, byteLimit: Int = 1 << 20, gate: FlowGate) -> Consumer<Int> {
        Consumer(
            channel: "feed", policy: BufferingPolicy(limit: limit, whenFull: .pauseReading, byteLimit: byteLimit),
            gate: gate)
    }

    @Test("over the limit nothing is dropped and the gate closes; it opens once half the limit is left")
    func countHighWater() async throws {
        let gate = FlowGate()
        let buffer = Self.buffer(limit: 4, gate: gate)
        #expect(buffer.deliver(contentsOf: [1, 2, 3, 4]))
        #expect(gate.isOpen, "at the limit, not over it")
        #expect(buffer.deliver(contentsOf: [5, 6, 7, 8]))
        #expect(!gate.isOpen)
        var taken: [Int] = []
        for _ in 0..<5 {
            taken.append(try #require(try await buffer.next()))
            #expect(!gate.isOpen, "\(8 - taken.count) left of a limit of 4")
        }
        taken.append(try #require(try await buffer.next()))
        #expect(gate.isOpen, "2 left: half the limit")
        buffer.finish()
        while let element = try await buffer.next() { taken.append(element) }
        #expect(taken == Array(1...8))
    }

    @Test("the byte limit is a high-water mark too (test elements weigh their value in bytes)")
    func byteHighWater() async throws {
        let gate = FlowGate()
        let buffer = Self.buffer(limit: 100, byteLimit: 600, gate: gate)
        #expect(buffer.deliver(contentsOf: [400, 300]))
        #expect(!gate.isOpen)
        #expect(try await buffer.next() == 400)
        #expect(gate.isOpen, "300 bytes left: half the byte limit")
    }

    @Test("a buffer that ends while over its limits opens the gate (its consumer is gone)")
    func finishOpens() {
        let gate = FlowGate()
        let buffer = Self.buffer(limit: 1, gate: gate)
        _ = buffer.deliver(contentsOf: [1, 2, 3])
        #expect(!gate.isOpen)
        buffer.finish()
        #expect(gate.isOpen)
        buffer.finish()
        #expect(gate.isOpen, "a second end releases nothing more")
    }

    @Test("one gate for every consumer: it opens when the last one over its limits catches up")
    func sharedGate() async throws {
        let gate = FlowGate()
        let first = Self.buffer(limit: 2, gate: gate)
        let second = Self.buffer(limit: 2, gate: gate)
        _ = first.deliver(contentsOf: [1, 2, 3])
        _ = second.deliver(contentsOf: [1, 2, 3])
        // Going over again while already over holds the gate once.
        _ = first.deliver(contentsOf: [4])
        for _ in 0..<3 { _ = try await first.next() }
        #expect(!gate.isOpen, "the second consumer is still behind")
        for _ in 0..<2 { _ = try await second.next() }
        #expect(gate.isOpen)
    }

    @Test("a socket paused at the closed gate is resumed once when it opens; at an open gate nothing pauses")
    func pausing() {
        let gate = FlowGate()
        let resumed = NIOLockedValueBox(0)
        #expect(gate.pauseUnlessOpen { resumed.withLockedValue { $0 += 1 } } == nil, "open: the socket reads on")
        let buffer = Self.buffer(limit: 1, gate: gate)
        _ = buffer.deliver(contentsOf: [1, 2])
        #expect(gate.pauseUnlessOpen { resumed.withLockedValue { $0 += 1 } } != nil)
        #expect(gate.pauseUnlessOpen { resumed.withLockedValue { $0 += 10 } } != nil)
        let gone = gate.pauseUnlessOpen { resumed.withLockedValue { $0 += 100 } }
        #expect(gate.waiterCount == 3)
        // A socket closed while paused is forgotten: the gate keeps nothing of it.
        if let gone { gate.cancelPause(gone) }
        #expect(gate.waiterCount == 2)
        #expect(resumed.withLockedValue { $0 } == 0, "nothing resumes while the gate is closed")
        // The consumer finishes: the gate opens and the two sockets left are resumed, once each.
        buffer.finish()
        #expect(gate.isOpen)
        #expect(resumed.withLockedValue { $0 } == 11)
        #expect(gate.waiterCount == 0)
    }

    @Test("without the pauseReading policy the gate is never held")
    func otherPolicies() {
        let gate = FlowGate()
        for whenFull in [BufferingPolicy.WhenFull.fail, .dropOldest, .dropNewest] {
            let buffer = Consumer<Int>(
                channel: "feed", policy: BufferingPolicy(limit: 1, whenFull: whenFull), gate: gate)
            _ = buffer.deliver(contentsOf: [1, 2, 3])
            #expect(gate.isOpen)
        }
    }

    @Test("with a ceiling, pauseReading holds at most that many: past it the oldest go, counted as dropped")
    func ceiling() async {
        let gate = FlowGate()
        let buffer = Consumer<Int>(
            channel: nil, policy: BufferingPolicy(limit: 2, whenFull: .pauseReading), gate: gate, ceiling: 4
        ) { _ in 0 }
        _ = buffer.deliver(contentsOf: 1...10)
        #expect(!gate.isOpen)
        buffer.finish()
        var taken: [Int] = []
        while let element = try? await buffer.next() { taken.append(element) }
        #expect(taken == [7, 8, 9, 10])
        #expect(gate.isOpen)
    }
}
