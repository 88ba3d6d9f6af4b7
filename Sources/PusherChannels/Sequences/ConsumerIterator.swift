// SPDX-License-Identifier: MIT

import PusherCore

/// The iteration of one consumer, shared by ``ChannelSequence`` and ``PusherSequence``. Either the
/// iterator registered the consumer when it was made (dropping the iterator, by leaving the loop,
/// drops its lease, which removes the consumer), or it claimed a consumer a scope holds
/// (`withSubscription`): then leaving the loop gives the claim, and the rest of the run, back.
/// Generic, but only used with concrete elements inside this module, so it is specialised.
@usableFromInline
struct ConsumerIterator<Element: Sendable> {
    /// Registers a consumer at once (synchronously) and returns it.
    typealias Register = @Sendable () -> Consumer<Element>

    /// Where a sequence's iterators get their consumer.
    enum Source: Sendable {
        /// Each iterator registers a consumer of its own.
        case registering(Register)
        /// One consumer a scope registered; one loop at a time claims it.
        case held(Consumer<Element>)
    }

    private var lease: ConsumerLease<Element>?
    /// Why the loop may not iterate (another loop holds the claim): thrown by the first `next()`.
    private var refusal: PusherError?
    /// Elements taken from a registered consumer in one run and not returned yet; the public
    /// iterators return them inline (see ``ConsumerRun``) and call ``next(isolation:)`` when it is
    /// spent. A claim keeps its run in its lease instead, to give back what the loop left.
    @usableFromInline var run = ConsumerRun<Element>()

    init(register: Register) {
        self.lease = ConsumerLease(register(), .registration)
    }

    init(_ source: Source, channel: String?) {
        switch source {
        case .registering(let register):
            self.lease = ConsumerLease(register(), .registration)
        case .held(let consumer):
            if consumer.claim() {
                self.lease = ConsumerLease(consumer, .claim)
            } else {
                self.refusal = PusherError(
                    .invalidConfiguration, "another loop iterates this subscription", channel: channel)
            }
        }
    }

    /// The consumer, until the iteration ends.
    var consumer: Consumer<Element>? { self.lease?.consumer }

    /// The next element: from the run, else the first of a new run (taken without suspending),
    /// else the next one the buffer gets (suspending until then).
    mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        if let element = self.run.next() { return element }
        if let refusal = self.refusal {
            self.refusal = nil
            throw refusal
        }
        guard let lease = self.lease else { return nil }
        if lease.isClaim { return try await self.nextClaimed(lease, isolation: actor) }
        // A cancelled task's loop ends here, at the end of a run, even while elements keep coming
        // (the buffer alone would hand them out as long as it has any).
        if Task.isCancelled {
            self.finish()
            return nil
        }
        do {
            // A buffered run is taken without any async call; only an empty buffer waits.
            if let element = lease.consumer.takeRun(into: &self.run) { return element }
            if let element = try await lease.consumer.next(isolation: actor) { return element }
        } catch {
            self.finish()
            throw error
        }
        // The end, or the task was cancelled: releasing the consumer unsubscribes.
        self.finish()
        return nil
    }

    /// The next element of a claimed consumer, from the lease's run.
    private mutating func nextClaimed(
        _ lease: ConsumerLease<Element>, isolation actor: isolated (any Actor)?
    ) async throws(PusherError) -> Element? {
        // A cancelled task's loop ends now, even while events keep coming (the buffer alone would
        // hand them out as long as it has any); they stay for the next loop, with the rest of the
        // run (the lease gives it back).
        if Task.isCancelled {
            self.lease = nil
            return nil
        }
        if let element = lease.run.next() { return element }
        do {
            if let element = try await lease.nextRun(isolation: actor) { return element }
        } catch {
            self.lease = nil
            throw error
        }
        self.lease = nil
        return nil
    }

    /// Ends the iteration now: a registered consumer is removed (a copy of this iterator that is
    /// still alive must not keep it); a claim is given back once no copy holds it.
    mutating func finish() {
        self.run = ConsumerRun()
        if self.lease?.isClaim == false { self.lease?.consumer.release() }
        self.lease = nil
    }
}
