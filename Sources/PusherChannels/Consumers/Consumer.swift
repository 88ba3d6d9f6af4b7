// SPDX-License-Identifier: MIT

import DequeModule
import PusherCore

/// One consumer of a client, of any kind (channel events, presence changes, notifications): its
/// buffer, its registration and its lease, behind one lock. Every public sequence iterates one.
///
/// The client hands over a batch of events under one lock and wakes a waiting consumer once per
/// batch (``deliver(contentsOf:)``). The consumer's iterator takes a run of buffered elements under
/// one lock without suspending (``takeRun(into:)``), and suspends only when the buffer is
/// empty.
///
/// The limits count events the consumer has not taken, and their bytes. A consumer that is waiting
/// has one more place: the event that wakes it is as good as taken (and `dropOldest` never drops
/// it). An element larger than the byte limit alone is still taken when nothing else is buffered.
///
/// With `pauseReading`, the limits are a high-water mark: every element is taken, and the buffer
/// holds the client's ``FlowGate`` from the moment it goes over them until the consumer has taken
/// it down to half of both (or it ends), so the client reads no more meanwhile.
///
/// The consumer takes elements in runs (``takeRun(into:)``, at most a quarter of the limit each).
/// The elements it took stay referenced (in its run, then here; at most ``takenLimit`` of them and
/// ``takenByteLimit`` bytes): once it asks for more, it has returned them, and its spent run goes
/// back here whole (one array, no per-element work) for the producer's next batch to let go of
/// after its lock. An element the consumer is done with is then freed on the producer's thread,
/// which allocated it, instead of making the consumer contend for that thread's malloc arena once
/// per element (as it would if the producer let go of a run the consumer still holds).
///
/// Its registration: ``id`` is its number in the client (one number space for every kind), and
/// ``release()`` removes it from the client, once (the iterator that owns it calls it when it ends,
/// its ``ConsumerLease`` when it goes away). A consumer iterated by loops one after another (the
/// subscription of `withSubscription`) is claimed by one loop at a time (``claim()``).
package final class Consumer<Element: Sendable>: Sendable {
    indirect enum End {
        case finished
        case failed(PusherError)
    }

    /// A buffered element with the bytes it counts, so that taking it does not read the element
    /// again (an event's first read on the consumer's thread misses the cache).
    struct Stored {
        let element: Element
        let size: Int
    }

    struct State {
        var elements = Deque<Stored>()
        /// The bytes of `elements`.
        var bytes = 0
        /// The consumer waits, or was woken and has not taken yet: the first element is its.
        var reserved = false
        var end: End?
        /// Over the high-water mark (`pauseReading`): the buffer holds the flow gate.
        var holdsGate = false
        /// Elements of the consumer's latest take of a single element (``next(isolation:)``), and
        /// their bytes: it may still hold them.
        var taken: [Element] = []
        var takenBytes = 0
        /// Elements of its earlier takes and spent runs, which it has returned (it asked for more
        /// since), one array per take, with their number and bytes: the producer lets go of them
        /// with its next batch, or they go with the buffer (see `take`).
        var done: [[Element]] = []
        var doneCount = 0
        var doneBytes = 0
        /// Removes the consumer from its client; nil once it has (or for one never registered).
        var release: (@Sendable () -> Void)?
        /// A loop iterates it (``claim()``).
        var isClaimed = false
        /// How many times the consumer took from the buffer (a run, or a wait), for the package's tests.
        var takes = 0
    }

    /// At most this many taken elements, and bytes of them, are kept for the producer to let go of:
    /// about one socket read's batch (up to 256 KiB of frames, some 1,500 small events). A consumer
    /// whose channel falls quiet keeps that much until its next batch or its end. (1 MiB measured
    /// no faster end to end than 256 KiB.)
    package static var takenLimit: Int { 8192 }
    package static var takenByteLimit: Int { 1 << 18 }
    /// At most this many elements are taken in one run (see ``takeRun(into:)``).
    static var runLength: Int { 128 }

    /// The consumer's number in its client, shared by every kind of consumer.
    package let id: ConsumerID
    let channel: String?
    let limit: Int
    let byteLimit: Int
    let whenFull: BufferingPolicy.WhenFull
    /// What `pauseReading` holds while the buffer is over its limits (nil: the policy is another).
    let gate: FlowGate?
    /// With `pauseReading`, the most elements held past the limit: at this many the oldest is
    /// dropped (nil: no ceiling). For notifications, some of which do not come from the socket
    /// and so keep coming while reading is paused (see `ConsumerRegistry.observerPolicy`).
    let ceiling: Int?
    /// The bytes an element counts against the byte limit.
    let byteCount: @Sendable (Element) -> Int
    /// The buffer, with the consumer's iterator as its one waiter.
    let state: WaitableState<State>
    /// A channel consumer's events of the batch being handled, not handed over yet: they go in one
    /// lock when the batch is done (``stage(_:into:)``, ``flush(tally:)``).
    ///
    /// `nonisolated(unsafe)`: only the client's driver touches it, and only while it holds the
    /// client's engine lock (in `ClientDriver.perform`, which stages and flushes within one
    /// hold of that lock); no other code reads or writes it. That lock orders every access.
    nonisolated(unsafe) private var staged: Deque<Element> = []

    /// - Parameters:
    ///   - id: The consumer's number in its client (tests may leave the default).
    ///   - gate: The client's flow gate, which the `pauseReading` policy holds while the buffer is
    ///     over its limits. Without one, `pauseReading` buffers without limit (for tests only).
    ///   - ceiling: With `pauseReading`, how many elements the buffer holds at most, past its limit
    ///     (nil: no ceiling); at the ceiling it drops the oldest.
    ///   - release: Removes the consumer from its client (see ``release()``).
    ///   - byteCount: What one element counts against the policy's byte limit.
    package init(
        id: ConsumerID = ConsumerID(0), channel: String?, policy: BufferingPolicy, gate: FlowGate? = nil,
        ceiling: Int? = nil, release: (@Sendable () -> Void)? = nil,
        byteCount: @escaping @Sendable (Element) -> Int
    ) {
        self.id = id
        self.channel = channel
        self.limit = policy.limit
        self.byteLimit = policy.byteLimit
        self.whenFull = policy.whenFull
        self.gate = policy.whenFull == .pauseReading ? gate : nil
        self.ceiling = ceiling.map { max($0, policy.limit) }
        self.byteCount = byteCount
        var state = State()
        state.release = release
        self.state = WaitableState(state)
    }

    /// Whether the buffer is over its limits and holds the flow gate (`pauseReading`).
    package var isOverLimit: Bool { self.state.withLock { $0.holdsGate } }

    // MARK: Registration

    /// Removes the consumer from its client, the first time only: an iterator that ended releases
    /// at once, even while a copy of it (captured by a task's closure, say) is still alive.
    package func release() {
        let release = self.state.withLock { state in
            defer { state.release = nil }
            return state.release
        }
        release?()
    }

    /// Claims the consumer for one loop; false when another loop holds it.
    func claim() -> Bool {
        self.state.withLock { state in
            defer { state.isClaimed = true }
            return !state.isClaimed
        }
    }

    /// How many times the consumer took from its buffer: once per run, once per wait (for the
    /// package's tests, which show that a loop takes runs, not elements, under the lock).
    package var takeCount: Int { self.state.withLock { $0.takes } }

    // MARK: Producer (the client)

    /// Stages `event` for the hand-over after the batch; the first one adds this consumer to
    /// `consumers`. Only under the client's engine lock (see `staged`).
    func stage(_ element: consuming Element, into consumers: inout [Consumer<Element>]) {
        if self.staged.isEmpty { consumers.append(self) }
        self.staged.append(element)
    }

    /// Hands the staged elements over, adding what the buffer took, dropped or failed to `tally`;
    /// false when the consumer is gone or was just failed. Only under the client's engine lock.
    func flush(tally: inout DeliveryTally) -> Bool {
        guard !self.staged.isEmpty else { return true }
        // Moved into the buffer, not copied: no retain and release per element. The staging
        // storage comes back empty, with its capacity, for the next batch.
        var staged: Deque<Element> = []
        swap(&staged, &self.staged)
        let alive = self.deliver(draining: &staged, tally: &tally)
        staged.removeAll(keepingCapacity: true)
        swap(&staged, &self.staged)
        return alive
    }

    /// Appends the elements of one batch under one lock and wakes the consumer if it waits.
    ///
    /// - Returns: False when the consumer is gone or was just failed (the client then forgets it).
    package func deliver<Elements: Sequence<Element>>(contentsOf elements: Elements) -> Bool {
        var tally = DeliveryTally()
        return self.deliver(contentsOf: elements, tally: &tally)
    }

    /// ``deliver(contentsOf:tally:)`` of `elements`, moved out of it (it is left empty, or with what
    /// a gone or failed consumer did not take).
    private func deliver(draining elements: inout Deque<Element>, tally: inout DeliveryTally) -> Bool {
        let (alive, done) = self.state.update(wakingIf: { !$0.elements.isEmpty || $0.end != nil }) {
            state -> (Bool, [[Element]]) in
            let done = Self.takeDone(&state)
            while let element = elements.popFirst() {
                if !self.add(element, to: &state, tally: &tally) { return (false, done) }
            }
            return (true, done)
        }
        // Let go of after the lock, on this thread (see `take`).
        _ = consume done
        return alive
    }

    /// The elements the consumer is done with, for the producer to let go of after the lock.
    @inline(__always)
    private static func takeDone(_ state: inout State) -> [[Element]] {
        var done: [[Element]] = []
        if !state.done.isEmpty {
            swap(&done, &state.done)
            state.doneCount = 0
            state.doneBytes = 0
        }
        return done
    }

    /// ``deliver(contentsOf:)``, adding what the buffer dropped or whether it failed to `tally`.
    func deliver<Elements: Sequence<Element>>(contentsOf elements: Elements, tally: inout DeliveryTally) -> Bool {
        // The consumer is woken when there is something for it: an element, or its end.
        // The elements the consumer is done with are let go of here, after the lock, so that they
        // are freed on this thread, which made them (see `take`).
        let (alive, done) = self.state.update(wakingIf: { !$0.elements.isEmpty || $0.end != nil }) {
            state -> (Bool, [[Element]]) in
            let done = Self.takeDone(&state)
            for element in elements {
                if !self.add(element, to: &state, tally: &tally) { return (false, done) }
            }
            return (true, done)
        }
        _ = consume done
        return alive
    }

    /// Buffers one element as the policy says; false when the consumer has ended or is failed now.
    private func add(_ element: consuming Element, to state: inout State, tally: inout DeliveryTally) -> Bool {
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
        let (releases, taken, done) = self.state.update { state -> (Bool, [Element], [[Element]]) in
            if state.end == nil { state.end = error.map(End.failed) ?? .finished }
            // Nothing more comes in: the reader need not wait for the rest to be taken, and the
            // producer will not come by to let go of what the consumer took.
            defer {
                state.holdsGate = false
                state.taken = []
                state.takenBytes = 0
                state.done = []
                state.doneCount = 0
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
}

extension Consumer where Element: BufferedElement {
    /// A consumer of elements that count their own bytes (see ``BufferedElement``).
    package convenience init(
        id: ConsumerID = ConsumerID(0), channel: String?, policy: BufferingPolicy, gate: FlowGate? = nil,
        release: (@Sendable () -> Void)? = nil
    ) {
        self.init(id: id, channel: channel, policy: policy, gate: gate, release: release) { $0.bufferedByteCount }
    }
}
