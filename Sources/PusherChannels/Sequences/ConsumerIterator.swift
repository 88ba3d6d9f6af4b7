// SPDX-License-Identifier: MIT

import PusherCore

/// The iteration of one consumer that the iterator registered, shared by ``ChannelEventSequence``,
/// ``PresenceChangeSequence`` and ``PusherSequence``: the consumer is registered when the iterator
/// is made, and the iterator takes runs from its buffer. Dropping the iterator (leaving the loop)
/// drops its lease, which removes the consumer. Generic, but only used with concrete elements
/// inside this module, so it is specialised.
@usableFromInline
struct ConsumerIterator<Element: Sendable> {
    /// Registers a consumer at once (synchronously) and returns it.
    typealias Register = @Sendable () -> Consumer<Element>

    private var lease: ConsumerLease<Element>?
    /// Elements taken from the consumer in one run and not returned yet; the public iterators
    /// return them inline (see ``ConsumerRun``) and call ``next(isolation:)`` when it is spent.
    @usableFromInline var run = ConsumerRun<Element>()

    init(register: Register) {
        self.lease = ConsumerLease(register(), .registration)
    }

    /// The consumer, until the iteration ends.
    var consumer: Consumer<Element>? { self.lease?.consumer }

    /// The next element: from the run, else the first of a new run (taken without suspending),
    /// else the next one the buffer gets (suspending until then).
    mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        if let element = self.run.next() { return element }
        guard let consumer = self.lease?.consumer else { return nil }
        // A cancelled task's loop ends here, at the end of a run, even while elements keep coming
        // (the buffer alone would hand them out as long as it has any).
        if Task.isCancelled {
            self.finish()
            return nil
        }
        do {
            // A buffered run is taken without any async call; only an empty buffer waits.
            if let element = consumer.takeRun(into: &self.run) { return element }
            if let element = try await consumer.next(isolation: actor) { return element }
        } catch {
            self.finish()
            throw error
        }
        // The end, or the task was cancelled: releasing the consumer unsubscribes.
        self.finish()
        return nil
    }

    /// Unsubscribes now: a copy of this iterator that is still alive must not keep the consumer.
    mutating func finish() {
        self.run = ConsumerRun()
        self.lease?.consumer.release()
        self.lease = nil
    }
}
