// SPDX-License-Identifier: MIT

import PusherCore

/// Membership changes of a presence channel: a snapshot first (again after every resubscription),
/// then additions and removals. Iterating subscribes, like ``ChannelEventSequence``; the sequence
/// throws ``PusherError`` when the channel cannot be subscribed or the consumer fell too far behind.
public struct PresenceChangeSequence: AsyncSequence, Sendable {
    public typealias Element = PresenceChange
    public typealias Failure = PusherError

    let register: ConsumerIterator<PresenceChange>.Register

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: ConsumerIterator(register: self.register))
    }

    /// Iterates the changes of one consumer. It takes buffered changes a run at a time: use one
    /// iterator in one loop; a copy shares the consumer but repeats the changes the original had
    /// taken and not returned yet.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: ConsumerIterator<PresenceChange>

        @inlinable
        public mutating func next() async throws(PusherError) -> PresenceChange? {
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: nil)
        }

        /// Returns a buffered element without suspending; suspends only when none is buffered.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> PresenceChange? {
            // The rest of the run this iterator took is returned inline, in the caller's loop.
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: actor)
        }

        /// Takes the next run, or waits. Not inlined, and not generic: the caller's module calls
        /// the code specialised for this element here.
        @usableFromInline
        mutating func nextRun(isolation actor: isolated (any Actor)?) async throws(PusherError) -> PresenceChange? {
            try await self.base.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension PresenceChangeSequence.AsyncIterator: Sendable {}
