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
package final class ConsumerBuffer<Element: BufferedElement>: Sendable {
    private enum End {
        case finished
        case failed(PusherError)
    }

    private struct State {
        var elements = Deque<Element>()
        /// The bytes of `elements`.
        var bytes = 0
        /// The consumer waits, or was woken and has not taken yet: the first element is its.
        var reserved = false
        var end: End?
    }

    private enum Taken {
        case element(Element)
        case end(End)
    }

    let channel: String?
    private let limit: Int
    private let byteLimit: Int
    private let whenFull: BufferingPolicy.WhenFull
    /// The buffer, with the consumer's iterator as its one waiter.
    private let state = WaitableState(State())

    package init(channel: String?, policy: BufferingPolicy) {
        self.channel = channel
        self.limit = policy.limit
        self.byteLimit = policy.byteLimit
        self.whenFull = policy.whenFull
    }

    // MARK: Producer (the client)

    /// Appends the elements of one batch under one lock and wakes the consumer if it waits.
    ///
    /// - Returns: False when the consumer is gone or was just failed (the client then forgets it).
    package func deliver(contentsOf elements: [Element]) -> Bool {
        var tally = DeliveryTally()
        return self.deliver(contentsOf: elements, tally: &tally)
    }

    /// ``deliver(contentsOf:)``, adding what the buffer dropped or whether it failed to `tally`.
    func deliver(contentsOf elements: [Element], tally: inout DeliveryTally) -> Bool {
        // The consumer is woken when there is something for it: an element, or its end.
        self.state.update(wakingIf: { !$0.elements.isEmpty || $0.end != nil }) { state -> Bool in
            for element in elements {
                if !self.add(element, to: &state, tally: &tally) { return false }
            }
            return true
        }
    }

    /// Buffers one element as the policy says; false when the consumer has ended or is failed now.
    private func add(_ element: Element, to state: inout State, tally: inout DeliveryTally) -> Bool {
        guard state.end == nil else { return false }
        let reserved = state.reserved ? 1 : 0
        let size = element.bufferedByteCount
        if state.elements.count < self.limit + reserved
            && (state.bytes + size <= self.byteLimit || state.elements.count <= reserved)
        {
            state.elements.append(element)
            state.bytes += size
            tally.accepted += 1
            return true
        }
        switch self.whenFull {
        case .dropNewest:
            tally.dropped += 1
            return true
        case .dropOldest:
            // Make room, by count and by bytes, never dropping the element a waiting consumer is owed.
            repeat {
                state.bytes -= state.elements.remove(at: reserved).bufferedByteCount
                tally.dropped += 1
            } while state.elements.count > reserved && state.bytes + size > self.byteLimit
            state.elements.append(element)
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
        self.state.update { state in
            if state.end == nil { state.end = error.map(End.failed) ?? .finished }
        }
    }

    /// Whether the consumer is suspended waiting for elements.
    package var hasWaiter: Bool { self.state.hasWaiter }

    // MARK: Consumer (the iterator)

    /// The next element; nil at the end or when the task is cancelled. Runs on the caller's
    /// executor, so taking a buffered element is a lock and no hop.
    package func next(isolation actor: isolated (any Actor)? = #isolation) async throws(PusherError) -> Element? {
        let taken = await self.state.wait(isolation: actor) { state -> Taken? in
            if let element = state.elements.popFirst() {
                state.bytes -= element.bufferedByteCount
                state.reserved = false
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
        switch taken {
        case .element(let element): return element
        case .end(.failed(let error)): throw error
        case .end(.finished), nil: return nil
        }
    }
}
