// SPDX-License-Identifier: MIT

import PusherCore

/// A channel consumer: the events of one channel (optionally of one event name), of every channel
/// the client is subscribed to, or the membership changes of a presence channel.
///
/// Iterating subscribes: making the iterator registers the consumer (a `for try await` loop makes it
/// at once), and the channel is subscribed on the server if nobody else listens to it yet. From
/// then on nothing is missed, even before the first `next()`; a sequence that is never iterated
/// registers nothing. When the iterating task is cancelled (the loop still gets the rest of the
/// run of events its iterator took, at most 127, then ends), or the loop is left, the consumer is
/// removed; when the last consumer of a channel goes,
/// `pusher:unsubscribe` is sent. Several consumers of one channel share one server subscription,
/// and each has its own buffer (see ``BufferingPolicy``).
///
/// The sequence finishes when the client stops, and throws ``PusherError`` when the channel name
/// is invalid, the channel cannot be subscribed (unless ``PusherClientOptions/subscriptionRetry``
/// subscribes it again: then the sequence waits), or the consumer fell too far behind.
public struct ChannelEventSequence: AsyncSequence, Sendable {
    public typealias Element = ChannelEvent
    public typealias Failure = PusherError

    let register: ConsumerIterator<ChannelEvent>.Register

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: ConsumerIterator(register: self.register))
    }

    /// Iterates the events of one consumer. It takes buffered events a run at a time: use one
    /// iterator in one loop; a copy shares the consumer but repeats the events the original had
    /// taken and not returned yet.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: ConsumerIterator<ChannelEvent>

        @inlinable
        public mutating func next() async throws(PusherError) -> ChannelEvent? {
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: nil)
        }

        /// Returns a buffered element without suspending; suspends only when none is buffered.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> ChannelEvent? {
            // The rest of the run this iterator took is returned inline, in the caller's loop.
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: actor)
        }

        /// Takes the next run, or waits. Not inlined, and not generic: the caller's module calls
        /// the code specialised for this element here.
        @usableFromInline
        mutating func nextRun(isolation actor: isolated (any Actor)?) async throws(PusherError) -> ChannelEvent? {
            try await self.base.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension ChannelEventSequence.AsyncIterator: Sendable {}
