// SPDX-License-Identifier: MIT

import PusherChannels
import PusherCore
import Testing

/// The consumer's side of ``Consumer``: runs of elements taken under one lock, and the
/// elements it took handed back to the producer, which lets go of them with its next batch.
@Suite("Consumer runs and hand-back", .timeLimit(.minutes(1)))
struct ConsumerBufferRunTests {
    final class Token: Sendable {
        let size: Int
        init(size: Int = 1) { self.size = size }
    }

    /// Weak references to tokens, to see which are still alive.
    struct Watched {
        private final class Box {
            weak var token: Token?
            init(_ token: Token) { self.token = token }
        }
        private var boxes: [Box] = []

        mutating func watch(_ tokens: [Token]) { self.boxes += tokens.map(Box.init) }
        var alive: Int { self.boxes.count { $0.token != nil } }
    }

    static func buffer() -> Consumer<Token> {
        Consumer(channel: "feed", policy: BufferingPolicy(limit: 10_000, whenFull: .pauseReading)) { $0.size }
    }

    /// Delivers `count` new tokens to `buffer` and returns them watched (no other reference is left).
    static func deliverWatched(_ count: Int, to buffer: Consumer<Token>) -> Watched {
        var watched = Watched()
        let tokens = (0..<count).map { _ in Token() }
        watched.watch(tokens)
        _ = buffer.deliver(contentsOf: tokens)
        return watched
    }

    /// Delivers `count` tokens of `size` bytes to `buffer`, takes them all in runs and drops them;
    /// returns them watched, and how many were taken.
    static func deliverAndDrop(_ count: Int, size: Int = 1, to buffer: Consumer<Token>) -> (Watched, Int) {
        var watched = Watched()
        let tokens = (0..<count).map { _ in Token(size: size) }
        watched.watch(tokens)
        _ = buffer.deliver(contentsOf: tokens)
        // As an iterator takes them: run by run; the last, empty take hands the spent run back.
        var run = ConsumerRun<Token>()
        var taken = 0
        while buffer.takeRun(into: &run) != nil {
            taken += 1
            while run.next() != nil { taken += 1 }
        }
        return (watched, taken)
    }

    /// The elements of the next run `buffer` hands over (empty when nothing is buffered).
    static func nextRun<Element>(of buffer: Consumer<Element>, into run: inout ConsumerRun<Element>) -> [Element] {
        guard let first = buffer.takeRun(into: &run) else { return [] }
        var elements = [first]
        while let element = run.next() { elements.append(element) }
        return elements
    }

    @Test("a run takes what is buffered, in order, up to the run length; the rest stays buffered")
    func runs() {
        let buffer = Consumer<Int>(channel: "feed", policy: BufferingPolicy(limit: 1_000, whenFull: .fail))
        _ = buffer.deliver(contentsOf: Array(1...5))
        var run = ConsumerRun<Int>()
        #expect(Self.nextRun(of: buffer, into: &run) == [1, 2, 3, 4, 5])
        #expect(Self.nextRun(of: buffer, into: &run) == [])
        _ = buffer.deliver(contentsOf: Array(1...300))
        #expect(Self.nextRun(of: buffer, into: &run) == Array(1...128))
        #expect(Self.nextRun(of: buffer, into: &run) == Array(129...256))
        #expect(Self.nextRun(of: buffer, into: &run) == Array(257...300))
    }

    @Test("a run is at most a quarter of the limit, so that what the consumer holds cannot double it")
    func runCap() {
        let buffer = Consumer<Int>(channel: "feed", policy: BufferingPolicy(limit: 8, whenFull: .fail))
        _ = buffer.deliver(contentsOf: Array(1...8))
        var run = ConsumerRun<Int>()
        #expect(Self.nextRun(of: buffer, into: &run) == [1, 2])
        let tiny = Consumer<Int>(channel: "feed", policy: BufferingPolicy(limit: 1, whenFull: .fail))
        _ = tiny.deliver(contentsOf: [1])
        var tinyRun = ConsumerRun<Int>()
        #expect(Self.nextRun(of: tiny, into: &tinyRun) == [1])
    }

    @Test("what the consumer took is let go of when the buffer ends, without another batch")
    func finishReleases() {
        let buffer = Self.buffer()
        let (watched, taken) = Self.deliverAndDrop(3, to: buffer)
        #expect(taken == 3)
        #expect(watched.alive == 3)
        buffer.finish()
        #expect(watched.alive == 0)
    }

    @Test("elements the consumer took and dropped are let go of by the producer's next batch")
    func producerReleases() {
        let buffer = Self.buffer()
        let (watched, taken) = Self.deliverAndDrop(3, to: buffer)
        #expect(taken == 3)
        // The consumer dropped them; the buffer keeps them for the producer.
        #expect(watched.alive == 3)
        _ = buffer.deliver(contentsOf: [Token()])
        #expect(watched.alive == 0)
    }

    @Test("a run the consumer may still hold is let go of only after it asks for more, by the producer")
    func currentRunKept() {
        let buffer = Self.buffer()
        let watched = Self.deliverWatched(3, to: buffer)
        var run = ConsumerRun<Token>()
        #expect(Self.nextRun(of: buffer, into: &run).count == 3)
        // The consumer has not asked for more: the producer's batch does not let go of its run.
        _ = buffer.deliver(contentsOf: [Token()])
        #expect(watched.alive == 3)
        // It asks for more (and gets the new token): its earlier run is the producer's now.
        #expect(Self.nextRun(of: buffer, into: &run).count == 1)
        #expect(watched.alive == 3)
        _ = buffer.deliver(contentsOf: [Token()])
        #expect(watched.alive == 0)
    }

    @Test("elements taken after the buffer ended are not kept: dropped by the consumer, they are gone")
    func nothingKeptAfterTheEnd() {
        let buffer = Self.buffer()
        let watched = Self.deliverWatched(3, to: buffer)
        buffer.finish()
        var run = ConsumerRun<Token>()
        #expect(Self.nextRun(of: buffer, into: &run).count == 3)
        #expect(watched.alive == 3)
        // Asked for more: nothing is buffered, the buffer has ended, so the spent run is not kept.
        #expect(Self.nextRun(of: buffer, into: &run).isEmpty)
        #expect(watched.alive == 0)
    }

    @Test("an iterator's spent run goes back whole when it takes the next: the producer lets go of it")
    func spentRunHandedBack() {
        let buffer = Self.buffer()
        let watched = Self.deliverWatched(3, to: buffer)
        var run = ConsumerRun<Token>()
        #expect(buffer.takeRun(into: &run) != nil)
        while run.next() != nil {}
        // The run is spent, and the loop dropped every token: the run still holds them.
        #expect(watched.alive == 3)
        let more = Self.deliverWatched(2, to: buffer)
        #expect(watched.alive == 3)
        #expect(more.alive == 2)
        // The next run hands the spent one back; the producer's next batch lets go of it.
        #expect(buffer.takeRun(into: &run) != nil)
        while run.next() != nil {}
        #expect(watched.alive == 3)
        _ = buffer.deliver(contentsOf: [Token()])
        #expect(watched.alive == 0)
        #expect(more.alive == 2)
        // Asked for more with nothing buffered: the spent run goes back too.
        #expect(buffer.takeRun(into: &run) != nil)
        #expect(buffer.takeRun(into: &run) == nil)
        _ = buffer.deliver(contentsOf: [Token()])
        #expect(more.alive == 0)
    }

    @Test("the elements kept for the producer are bounded in number and in bytes")
    func bounded() {
        let many = Consumer<Token>.takenLimit + 2000
        let buffer = Consumer<Token>(channel: "feed", policy: BufferingPolicy(limit: many, whenFull: .pauseReading)) {
            $0.size
        }
        let (watched, taken) = Self.deliverAndDrop(many, to: buffer)
        #expect(taken == many)
        #expect(watched.alive > 0)
        #expect(watched.alive <= Consumer<Token>.takenLimit)

        // Runs of 2 (a quarter of the limit of 8; without a flow gate the buffer takes all 20).
        let large = Consumer<Token>(channel: "feed", policy: BufferingPolicy(limit: 8, whenFull: .pauseReading)) {
            $0.size
        }
        let (watchedLarge, takenLarge) = Self.deliverAndDrop(20, size: 100_000, to: large)
        #expect(takenLarge == 20)
        #expect(watchedLarge.alive > 0)
        #expect(watchedLarge.alive * 100_000 <= Consumer<Token>.takenByteLimit)
        withExtendedLifetime((buffer, large)) {}
    }
}
