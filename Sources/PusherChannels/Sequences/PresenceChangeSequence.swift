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
        var base: ConsumerIterator<PresenceChange>

        public mutating func next() async throws(PusherError) -> PresenceChange? {
            try await self.base.next(isolation: nil)
        }

        /// Takes a buffered element without suspending; suspends only when none is buffered.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> PresenceChange? {
            try await self.base.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension PresenceChangeSequence.AsyncIterator: Sendable {}
