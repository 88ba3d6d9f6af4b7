// SPDX-License-Identifier: MIT

import PusherChannels
import PusherCore
import Testing

@Suite("Consumer", .timeLimit(.minutes(1)))
struct ConsumerBufferTests {
    static func buffer(limit: Int, _ whenFull: BufferingPolicy.WhenFull) -> Consumer<Int> {
        Consumer(channel: "feed", policy: BufferingPolicy(limit: limit, whenFull: whenFull))
    }

    static func drain(_ buffer: Consumer<Int>) async -> (elements: [Int], error: PusherError.Code?) {
        var elements: [Int] = []
        do {
            while let element = try await buffer.next() { elements.append(element) }
            return (elements, nil)
        } catch {
            return (elements, error.code)
        }
    }

    @Test(
        "a consumer that is not waiting holds `limit` elements; the policy decides the rest",
        arguments: [
            (BufferingPolicy.WhenFull.dropNewest, [1, 2, 3], PusherError.Code?.none),
            (.dropOldest, [3, 4, 5], nil),
            (.fail, [1, 2, 3], .consumerTooSlow),
        ]
    )
    func limits(whenFull: BufferingPolicy.WhenFull, expected: [Int], error: PusherError.Code?) async {
        let buffer = Self.buffer(limit: 3, whenFull)
        _ = buffer.deliver(contentsOf: Array(1...5))
        buffer.finish()
        let result = await Self.drain(buffer)
        #expect(result.elements == expected)
        #expect(result.error == error)
    }

    @Test(
        "bytes are bounded as well as events (test elements weigh their value in bytes)",
        arguments: [
            (BufferingPolicy.WhenFull.dropNewest, [100, 200, 300], PusherError.Code?.none),
            (.dropOldest, [400, 50], nil),
            (.fail, [100, 200, 300], .consumerTooSlow),
        ]
    )
    func byteLimit(whenFull: BufferingPolicy.WhenFull, expected: [Int], error: PusherError.Code?) async {
        let buffer = Consumer<Int>(
            channel: "feed", policy: BufferingPolicy(limit: 100, whenFull: whenFull, byteLimit: 600))
        _ = buffer.deliver(contentsOf: [100, 200, 300, 400, 50])
        buffer.finish()
        let result = await Self.drain(buffer)
        #expect(result.elements == expected)
        #expect(result.error == error)
    }

    @Test("one element larger than the byte limit alone is still delivered")
    func oversizedElement() async {
        let buffer = Consumer<Int>(
            channel: "feed", policy: BufferingPolicy(limit: 10, whenFull: .fail, byteLimit: 600))
        #expect(buffer.deliver(contentsOf: [1_000]))
        buffer.finish()
        let result = await Self.drain(buffer)
        #expect(result.elements == [1_000])
        #expect(result.error == nil)
    }

    @Test("a waiting consumer is woken once per batch, and the element that wakes it is never dropped")
    func waitingConsumer() async {
        let buffer = Self.buffer(limit: 1, .dropOldest)
        await withTaskGroup(of: [Int].self) { group in
            group.addTask {
                var taken: [Int] = []
                while let element = try? await buffer.next() { taken.append(element) }
                return taken
            }
            while !buffer.hasWaiter { await Task.yield() }
            // One batch: one lock, one wake-up of the waiting consumer.
            #expect(buffer.deliver(contentsOf: [0, 1, 2, 3]))
            #expect(!buffer.hasWaiter, "the batch woke the consumer")
            buffer.finish()
            let taken = await group.next() ?? []
            // 0 was reserved for the waiter; the one other place holds the newest.
            #expect(taken == [0, 3])
        }
    }

    @Test("a consumer cancelled before it waits returns nil instead of hanging")
    func cancelledBeforeWaiting() async {
        let buffer = Self.buffer(limit: 4, .fail)
        let result = await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                withUnsafeCurrentTask { $0?.cancel() }
                return try? await buffer.next()
            }
            return await group.next() ?? nil
        }
        #expect(result == nil)
    }

    @Test("elements buffered before a failure are delivered first; then the error, then the end")
    func failureAfterElements() async {
        let buffer = Self.buffer(limit: 4, .fail)
        _ = buffer.deliver(contentsOf: [1])
        buffer.finish(throwing: PusherError(.subscriptionFailed, "refused"))
        #expect(!buffer.deliver(contentsOf: [2]), "an ended consumer takes nothing more")
        let result = await Self.drain(buffer)
        #expect(result.elements == [1])
        #expect(result.error == .subscriptionFailed)
        #expect((try? await buffer.next()) == nil)
    }
}

extension Int: BufferedElement {
    /// Test elements count their own value as their size, so tests can reach the byte limit.
    package var bufferedByteCount: Int { self }

    @Test("a buffered event counts every string it holds: a large user id fills the byte limit like large data")
    func eventBytesCountEveryField() async {
        let buffer = Consumer<ChannelEvent>(
            channel: "presence-x", policy: BufferingPolicy(limit: 100, whenFull: .dropNewest, byteLimit: 10_000))
        let heavy = String(repeating: "u", count: 4_000)
        let events = (1...5).map {
            ChannelEvent(channel: "presence-x", name: "client-\($0)", data: "{}", userID: heavy)
        }
        _ = buffer.deliver(contentsOf: events)
        buffer.finish()
        var names: [String] = []
        while let event = try? await buffer.next() { names.append(event.name) }
        #expect(names == ["client-1", "client-2"])
        #expect(events[0].bufferedByteCount > 4_000)
    }

    @Test("a presence change counts the ids and user_info it carries, a snapshot every member")
    func presenceBytes() {
        let info = JSONValue.object(["bio": .string(String(repeating: "b", count: 5_000))])
        let member = PresenceMember(userID: "1", userInfo: info)
        #expect(PresenceChange.added(member).bufferedByteCount > 5_000)
        #expect(PresenceChange.removed(member).bufferedByteCount > 5_000)
        let members = (1...10).map { PresenceMember(userID: "\($0)", userInfo: info) }
        let snapshot = PresenceChange.snapshot(PresenceSnapshot(members: members, me: nil))
        #expect(snapshot.bufferedByteCount > 50_000)
    }
}
