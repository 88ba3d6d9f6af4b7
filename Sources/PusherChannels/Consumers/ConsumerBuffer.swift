// SPDX-License-Identifier: MIT

import DequeModule
import PusherCore

/// One consumer's buffer: the client appends, the consumer's iterator takes.
///
/// The client hands over a batch of events under one lock and wakes a waiting consumer once per
/// batch (``deliver(contentsOf:)``). The consumer takes elements without suspending while any are
/// buffered, and suspends only when the buffer is empty.
///
/// The limits count events the consumer has not taken, and their bytes. A consumer that is waiting
/// has one more place: the event that wakes it is as good as taken (and `dropOldest` never drops
/// it). An element larger than the byte limit alone is still taken when nothing else is buffered.
///
/// With `pauseReading`, the limits are a high-water mark: every element is taken, and the buffer
/// holds the client's ``FlowGate`` from the moment it goes over them until the consumer has taken
/// it down to half of both (or it ends), so the client reads no more meanwhile.
///
/// The consumer takes elements in runs (``takeBuffered(upTo:into:)``, at most a quarter of the
/// limit each). The elements it took stay referenced here (at most 1024 of them and 128 KiB):
/// once it asks for more, it has returned them, and the producer's next batch lets go of them
/// after its lock. An element the consumer is done with is then freed on the producer's thread,
/// which allocated it, instead of making the consumer contend for that thread's malloc arena once
/// per element (as it would if the producer let go of a run the consumer still holds).
package final class ConsumerBuffer<Element: Sendable>: Sendable {
    private indirect enum End {
        case finished
        case failed(PusherError)
    }

    /// A buffered element with the bytes it counts, so that taking it does not read the element
    /// again (an event's first read on the consumer's thread misses the cache).
    private struct Stored {
        let element: Element
        let size: Int
    }

    private struct State {
        var elements = Deque<Stored>()
        /// The bytes of `elements`.
        var bytes = 0
        /// The consumer waits, or was woken and has not taken yet: the first element is its.
        var reserved = false
        var end: End?
        /// Over the high-water mark (`pauseReading`): the buffer holds the flow gate.
        var holdsGate = false
        /// Elements of the consumer's latest take, and their bytes: it may still hold them.
        var taken: [Element] = []
        var takenBytes = 0
        /// Elements of its earlier takes, which it has returned (it asked for more since), and their
        /// bytes: the producer lets go of them with its next batch, or they go with the buffer
        /// (see `take`).
        var done: [Element] = []
        var doneBytes = 0
    }

    /// At most this many taken elements, and bytes of them, are kept for the producer to let go of.
    private static var takenLimit: Int { 1024 }
    private static var takenByteLimit: Int { 1 << 17 }

    private enum Taken {
        case element(Element)
        case end(End)
    }

    let channel: String?
    private let limit: Int
    private let byteLimit: Int
    private let whenFull: BufferingPolicy.WhenFull
    /// What `pauseReading` holds while the buffer is over its limits (nil: the policy is another).
    private let gate: FlowGate?
    /// With `pauseReading`, the most elements held past the limit: at this many the oldest is
    /// dropped (nil: no ceiling). For notifications, some of which do not come from the socket
    /// and so keep coming while reading is paused (see `ConsumerRegistry.observerPolicy`).
    private let ceiling: Int?
    /// The bytes an element counts against the byte limit.
    private let byteCount: @Sendable (Element) -> Int
    /// The buffer, with the consumer's iterator as its one waiter.
    private let state = WaitableState(State())

    /// - Parameters:
    ///   - gate: The client's flow gate, which the `pauseReading` policy holds while the buffer is
    ///     over its limits. Without one, `pauseReading` buffers without limit (for tests only).
    ///   - byteCount: What one element counts against the policy's byte limit.
    ///   - ceiling: With `pauseReading`, how many elements the buffer holds at most, past its limit
    ///     (nil: no ceiling); at the ceiling it drops the oldest.
    package init(
        channel: String?, policy: BufferingPolicy, gate: FlowGate? = nil, ceiling: Int? = nil,
        byteCount: @escaping @Sendable (Element) -> Int
    ) {
        self.channel = channel
        self.limit = policy.limit
        self.byteLimit = policy.byteLimit
        self.whenFull = policy.whenFull
        self.gate = policy.whenFull == .pauseReading ? gate : nil
        self.ceiling = ceiling.map { max($0, policy.limit) }
        self.byteCount = byteCount
    }

    /// Whether the buffer is over its limits and holds the flow gate (`pauseReading`).
    package var isOverLimit: Bool { self.state.withLock { $0.holdsGate } }

    // MARK: Producer (the client)

    /// Appends the elements of one batch under one lock and wakes the consumer if it waits.
    ///
    /// - Returns: False when the consumer is gone or was just failed (the client then forgets it).
    package func deliver<Elements: Sequence<Element>>(contentsOf elements: Elements) -> Bool {
        var tally = DeliveryTally()
        return self.deliver(contentsOf: elements, tally: &tally)
    }

    /// ``deliver(contentsOf:)``, adding what the buffer dropped or whether it failed to `tally`.
    func deliver<Elements: Sequence<Element>>(contentsOf elements: Elements, tally: inout DeliveryTally) -> Bool {
        // The consumer is woken when there is something for it: an element, or its end.
        // The elements the consumer is done with are let go of here, after the lock, so that they
        // are freed on this thread, which made them (see `take`).
        let (alive, done) = self.state.update(wakingIf: { !$0.elements.isEmpty || $0.end != nil }) {
            state -> (Bool, [Element]) in
            var done: [Element] = []
            if !state.done.isEmpty {
                swap(&done, &state.done)
                state.doneBytes = 0
            }
            for element in elements {
                if !self.add(element, to: &state, tally: &tally) { return (false, done) }
            }
            return (true, done)
        }
        _ = consume done
        return alive
    }

    /// Buffers one element as the policy says; false when the consumer has ended or is failed now.
    private func add(_ element: Element, to state: inout State, tally: inout DeliveryTally) -> Bool {
        guard state.end == nil else { return false }
        let reserved = state.reserved ? 1 : 0
        let size = self.byteCount(element)
        if state.elements.count < self.limit + reserved
            && (state.bytes + size <= self.byteLimit || state.elements.count <= reserved)
        {
            state.elements.append(Stored(element: element, size: size))
            state.bytes += size
            tally.accepted += 1
            return true
        }
        switch self.whenFull {
        case .pauseReading:
            // Taken anyway (the reader stops after this batch); the gate closes once. Only at the
            // ceiling (elements that keep coming while reading is paused) is the oldest dropped.
            if let ceiling = self.ceiling, state.elements.count >= ceiling + reserved {
                state.bytes -= state.elements.remove(at: reserved).size
                tally.dropped += 1
            }
            state.elements.append(Stored(element: element, size: size))
            state.bytes += size
            tally.accepted += 1
            if !state.holdsGate, let gate = self.gate {
                state.holdsGate = true
                gate.hold()
                tally.readingPaused += 1
            }
            return true
        case .dropNewest:
            tally.dropped += 1
            return true
        case .dropOldest:
            // Make room, by count and by bytes, never dropping the element a waiting consumer is owed.
            repeat {
                state.bytes -= state.elements.remove(at: reserved).size
                tally.dropped += 1
            } while state.elements.count > reserved && state.bytes + size > self.byteLimit
            state.elements.append(Stored(element: element, size: size))
            state.bytes += size
            tally.accepted += 1
            return true
        case .fail:
            let what = state.elements.count < self.limit + reserved ? "\(self.byteLimit) bytes" : "\(self.limit) events"
            state.end = .failed(
                PusherError(
                    .consumerTooSlow,
                    "the consumer fell more than its buffer (\(what)) behind; later elements were not delivered to it",
                    channel: self.channel
                )
            )
            tally.consumersFailed += 1
            return false
        }
    }

    /// Ends the sequence after the buffered elements, with `error` if there is one. Idempotent: the
    /// first end wins.
    package func finish(throwing error: PusherError? = nil) {
        let (releases, taken, done) = self.state.update { state -> (Bool, [Element], [Element]) in
            if state.end == nil { state.end = error.map(End.failed) ?? .finished }
            // Nothing more comes in: the reader need not wait for the rest to be taken, and the
            // producer will not come by to let go of what the consumer took.
            defer {
                state.holdsGate = false
                state.taken = []
                state.takenBytes = 0
                state.done = []
                state.doneBytes = 0
            }
            return (state.holdsGate, state.taken, state.done)
        }
        _ = consume taken
        _ = consume done
        if releases { self.gate?.release() }
    }

    /// The error the buffer ends with, if it ended with one (and its consumer has not taken it yet).
    package var endError: PusherError? {
        self.state.withLock { state in
            if case .failed(let error) = state.end { error } else { nil }
        }
    }

    /// Whether the consumer is suspended waiting for elements.
    package var hasWaiter: Bool { self.state.hasWaiter }

    // MARK: Consumer (the iterator)

    /// Moves up to `maximum` buffered elements to the end of `elements` under one lock, without
    /// suspending; returns how many. The consumer's iterator takes a run of events at once, so
    /// that it does not contend for the lock with the producer once per event.
    package func takeBuffered(upTo maximum: Int, into elements: inout [Element?]) -> Int {
        // A run is at most a quarter of the limit: what the consumer holds in its run does not
        // count against the limits any more, so a run must not double them.
        let maximum = min(maximum, max(1, self.limit / 4))
        var releases = false
        let count = self.state.withLock { state in
            Self.retireTaken(&state)
            var count = 0
            while count < maximum, let element = self.take(from: &state, releases: &releases) {
                elements.append(element)
                count += 1
            }
            return count
        }
        if releases { self.gate?.release() }
        return count
    }

    /// The next element; nil at the end, or when the task is cancelled and nothing is buffered (a
    /// buffered element is still returned to a cancelled task: iterators check for cancellation
    /// themselves). Runs on the caller's executor, so taking a buffered element is a lock and no
    /// hop.
    package func next(isolation actor: isolated (any Actor)? = #isolation) async throws(PusherError) -> Element? {
        var releases = false
        let taken = await self.state.wait(isolation: actor) { state -> Taken? in
            Self.retireTaken(&state)
            if let element = self.take(from: &state, releases: &releases) { return .element(element) }
            if let end = state.end {
                state.end = .finished
                return .end(end)
            }
            // Nothing yet: the consumer suspends, and the next element is owed to it.
            state.reserved = true
            return nil
        }
        if releases { self.gate?.release() }
        switch taken {
        case .element(let element): return element
        case .end(.failed(let error)): throw error
        case .end(.finished), nil: return nil
        }
    }

    /// The consumer asks for more, so it has returned every element it took before: they are the
    /// producer's to let go of.
    @inline(__always)
    private static func retireTaken(_ state: inout State) {
        guard !state.taken.isEmpty else { return }
        if state.done.isEmpty {
            swap(&state.done, &state.taken)
        } else {
            state.done.append(contentsOf: state.taken)
            state.taken.removeAll(keepingCapacity: true)
        }
        state.doneBytes += state.takenBytes
        state.takenBytes = 0
    }

    /// Takes the first buffered element, if any; sets `releases` when the buffer came down to
    /// half of both limits and lets go of the flow gate (the caller releases it, outside the lock).
    @inline(__always)
    private func take(from state: inout State, releases: inout Bool) -> Element? {
        guard let stored = state.elements.popFirst() else { return nil }
        state.bytes -= stored.size
        state.reserved = false
        // Kept until the consumer has returned it and the producer comes by with its next batch,
        // so that the last reference is usually dropped on the producer's thread: memory goes back
        // to the allocator of the thread that made it (a free on another thread contends for that
        // thread's malloc arena, once per event). Bounded; past the bounds, or once the buffer
        // has ended (no producer comes by any more), the consumer lets go.
        if state.end == nil && state.taken.count + state.done.count < Self.takenLimit
            && state.takenBytes + state.doneBytes + stored.size <= Self.takenByteLimit
        {
            state.taken.append(stored.element)
            state.takenBytes += stored.size
        }
        // Down to half of both limits: the reader may go on.
        if state.holdsGate && state.elements.count <= self.limit / 2 && state.bytes <= self.byteLimit / 2 {
            state.holdsGate = false
            releases = true
        }
        return stored.element
    }
}

extension ConsumerBuffer where Element: BufferedElement {
    /// A buffer of elements that count their own bytes (see ``BufferedElement``).
    package convenience init(channel: String?, policy: BufferingPolicy, gate: FlowGate? = nil) {
        self.init(channel: channel, policy: policy, gate: gate) { $0.bufferedByteCount }
    }
}
