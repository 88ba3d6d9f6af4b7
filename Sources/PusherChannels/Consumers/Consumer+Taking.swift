// SPDX-License-Identifier: MIT

import DequeModule
import PusherCore

// The consumer's side: what its iterator does, on the iterating task.
extension Consumer {
    private enum Taken {
        case element(Element)
        case end(End)
    }

    /// The first element of a new run for an iterator whose `run` is spent: up to ``runLength``
    /// elements taken under one lock, without suspending; nil when nothing is buffered (the caller
    /// then waits with ``next(isolation:)``). Synchronous on purpose: taking a buffered run is one
    /// lock, with no async call and so no executor check per run. With ``next(isolation:)``, the
    /// one way every public iterator takes from its consumer.
    ///
    /// The spent run's storage, with the elements the iterator returned, comes back here in the
    /// same lock, for the producer to let go of (see ``Consumer``); past the bounds, or once the
    /// buffer has ended, the iterator lets go of it itself, after the lock.
    @inline(__always)
    package func takeRun(into run: inout ConsumerRun<Element>) -> Element? {
        // A run is at most a quarter of the limit: what the consumer holds in its run does not
        // count against the limits any more, so a run must not double them.
        let maximum = min(Self.runLength, max(1, self.limit / 4))
        var (spent, spentBytes) = run.takeSpent()
        var releases = false
        let count = self.state.withLock { state -> Int in
            Self.retireTaken(&state)
            if !spent.isEmpty && state.end == nil && state.doneCount + spent.count <= Self.takenLimit
                && state.doneBytes + spentBytes <= Self.takenByteLimit
            {
                state.doneCount += spent.count
                state.doneBytes += spentBytes
                state.done.append(spent)
                spent = []
            }
            var count = 0
            var bytes = 0
            while count < maximum, let stored = self.takeStored(from: &state, releases: &releases) {
                run.elements.append(stored.element)
                bytes += stored.size
                count += 1
            }
            if count > 0 { state.takes += 1 }
            run.bytes = bytes
            return count
        }
        _ = consume spent
        if releases { self.gate?.release() }
        guard count > 0 else { return nil }
        return run.next()
    }

    /// The next element; nil at the end, or when the task is cancelled and nothing is buffered (a
    /// buffered element is still returned to a cancelled task: iterators check for cancellation
    /// themselves). Runs on the caller's executor, so taking a buffered element is a lock and no
    /// hop.
    package func next(isolation actor: isolated (any Actor)? = #isolation) async throws(PusherError) -> Element? {
        var releases = false
        let taken = await self.state.wait(isolation: actor) { state -> Taken? in
            Self.retireTaken(&state)
            if let element = self.take(from: &state, releases: &releases) {
                state.takes += 1
                return .element(element)
            }
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

    /// Ends a loop's claim (see ``claim()``): the elements of its run that it did not return go
    /// back to the front of the buffer, for the next loop, in their order.
    func returnClaim(unreturned: some Collection<Element>) {
        self.state.withLock { state in
            state.isClaimed = false
            guard !unreturned.isEmpty else { return }
            var stored: [Stored] = []
            stored.reserveCapacity(unreturned.count)
            for element in unreturned {
                let size = self.byteCount(element)
                stored.append(Stored(element: element, size: size))
                state.bytes += size
            }
            state.elements.insert(contentsOf: stored, at: 0)
            // Back over the high-water mark: the reader waits again, as before the run was taken.
            // Held under this lock, as in `add`, so that a take cannot release it first.
            if let gate = self.gate, !state.holdsGate, state.end == nil,
                state.elements.count > self.limit || state.bytes > self.byteLimit
            {
                state.holdsGate = true
                gate.hold()
            }
        }
    }

    /// The consumer asks for more, so it has returned every element it took before: they are the
    /// producer's to let go of.
    @inline(__always)
    private static func retireTaken(_ state: inout State) {
        guard !state.taken.isEmpty else { return }
        state.doneCount += state.taken.count
        state.doneBytes += state.takenBytes
        state.done.append(state.taken)
        state.taken = []
        state.takenBytes = 0
    }

    /// Takes the first buffered element, if any, and keeps it for the producer to let go of (see
    /// ``takeStored(from:releases:)``).
    @inline(__always)
    private func take(from state: inout State, releases: inout Bool) -> Element? {
        guard let stored = self.takeStored(from: &state, releases: &releases) else { return nil }
        // Kept until the consumer has returned it and the producer comes by with its next batch,
        // so that the last reference is usually dropped on the producer's thread: memory goes back
        // to the allocator of the thread that made it (a free on another thread contends for that
        // thread's malloc arena, once per event). Bounded; past the bounds, or once the buffer
        // has ended (no producer comes by any more), the consumer lets go.
        if state.end == nil && state.taken.count + state.doneCount < Self.takenLimit
            && state.takenBytes + state.doneBytes + stored.size <= Self.takenByteLimit
        {
            state.taken.append(stored.element)
            state.takenBytes += stored.size
        }
        return stored.element
    }

    /// Takes the first buffered element, if any, with its bytes; sets `releases` when the buffer came
    /// down to half of both limits and lets go of the flow gate (the caller releases it, outside
    /// the lock).
    @inline(__always)
    private func takeStored(from state: inout State, releases: inout Bool) -> Stored? {
        guard let stored = state.elements.popFirst() else { return nil }
        state.bytes -= stored.size
        state.reserved = false
        // Down to half of both limits: the reader may go on.
        if state.holdsGate && state.elements.count <= self.limit / 2 && state.bytes <= self.byteLimit / 2 {
            state.holdsGate = false
            releases = true
        }
        return stored
    }
}
