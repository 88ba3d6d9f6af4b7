// SPDX-License-Identifier: MIT

import PusherCore

/// A channel consumer: the events of one channel (optionally of one event name) or of every channel
/// the client is subscribed to (``ChannelEventSequence``), or the membership changes of a presence
/// channel (``PresenceChangeSequence``: a snapshot first, again after every resubscription, then
/// additions and removals).
///
/// Iterating subscribes: making the iterator registers the consumer (a `for try await` loop makes it
/// at once), and the channel is subscribed on the server if nobody else listens to it yet. From
/// then on nothing is missed, even before the first `next()`; a sequence that is never iterated
/// registers nothing. When the iterating task is cancelled (the loop still gets the rest of the
/// run its iterator took, at most 127 elements, then ends), or the loop is left, the consumer is
/// removed; when the last consumer of a channel goes, `pusher:unsubscribe` is sent. Several
/// consumers of one channel share one server subscription, and each has its own buffer (see
/// ``BufferingPolicy``).
///
/// The sequence finishes when the client stops, and throws ``PusherError`` when the channel name
/// is invalid, the channel cannot be subscribed (unless ``PusherClientConfiguration/subscriptionRetry``
/// subscribes it again: then the sequence waits), or the consumer fell too far behind.
public struct ChannelSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = PusherError

    let register: ConsumerIterator<Element>.Register

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: ConsumerIterator(register: self.register))
    }

    /// Iterates one consumer. It takes buffered elements a run at a time: use one iterator in one
    /// loop; a copy shares the consumer but repeats the elements the original had taken and not
    /// returned yet.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: ConsumerIterator<Element>

        @inlinable
        public mutating func next() async throws(PusherError) -> Element? {
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: nil)
        }

        /// Returns a buffered element without suspending; suspends only when none is buffered.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
            // The rest of the run this iterator took is returned inline, in the caller's loop.
            if let element = self.base.run.next() { return element }
            return try await self.nextRun(isolation: actor)
        }

        /// Takes the next run, or waits: once per run, not per element, so not inlined. Specialised
        /// for the two element types here: the generic entry checks the type and goes to that code,
        /// so taking a run never runs the consumer's generic code (metadata lookups per element).
        @usableFromInline
        @_specialize(where Element == ChannelEvent)
        @_specialize(where Element == PresenceChange)
        mutating func nextRun(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
            try await self.base.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension ChannelSequence.AsyncIterator: Sendable {}

/// The events of a channel consumer (see ``ChannelSequence``).
public typealias ChannelEventSequence = ChannelSequence<ChannelEvent>

/// The membership changes of a presence channel (see ``ChannelSequence``).
public typealias PresenceChangeSequence = ChannelSequence<PresenceChange>
