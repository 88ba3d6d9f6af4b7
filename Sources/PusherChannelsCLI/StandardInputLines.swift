// SPDX-License-Identifier: MIT

import Dispatch

/// The lines of standard input, read on a thread of their own that stays at most ``capacity``
/// lines ahead of the consumer: a producer faster than the consumer waits (its writes block)
/// instead of filling memory. What is held is bounded by `capacity` lines of at most
/// `maximumLineBytes` each, plus one read.
struct StandardInputLines: AsyncSequence, Sendable {
    typealias Element = LineSplitter.Line
    typealias Failure = Never

    let capacity: Int
    private let lines: AsyncStream<LineSplitter.Line>
    /// Lines the reading thread may hand over before the consumer takes one.
    private let slots: DispatchSemaphore

    /// Starts reading standard input (once per process: standard input is read by one reader).
    init(
        capacity: Int, maximumLineBytes: Int, read: @escaping @Sendable (_ consume: (ArraySlice<UInt8>) -> Void) -> Void
    ) {
        // Made at 0 and signalled up to `capacity`: libdispatch crashes when a semaphore goes away
        // below the value it was made with (lines never taken, at exit).
        let slots = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { slots.signal() }
        let (lines, continuation) = AsyncStream.makeStream(of: LineSplitter.Line.self)
        (self.capacity, self.lines, self.slots) = (capacity, lines, slots)
        // A queue of its own: the reads block, and the global pool's threads run Swift concurrency.
        DispatchQueue(label: "pusher-channels.stdin-lines").async {
            var splitter = LineSplitter(maximumLineBytes: maximumLineBytes)
            read { chunk in
                for line in splitter.append(chunk) {
                    slots.wait()
                    continuation.yield(line)
                }
            }
            if let last = splitter.finish() {
                slots.wait()
                continuation.yield(last)
            }
            continuation.finish()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Element = LineSplitter.Line
        typealias Failure = Never

        var base: AsyncStream<LineSplitter.Line>.AsyncIterator
        let slots: DispatchSemaphore

        mutating func next() async -> LineSplitter.Line? {
            guard let line = await self.base.next() else { return nil }
            // Taken: the reading thread may read one more.
            self.slots.signal()
            return line
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.lines.makeAsyncIterator(), slots: self.slots)
    }
}
