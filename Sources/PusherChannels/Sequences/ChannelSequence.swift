// SPDX-License-Identifier: MIT

import PusherCore

/// A channel consumer: the events of one channel (optionally of one event name), of several
/// channels, of every channel the client is subscribed to or of the signed-in user, or the
/// membership changes of a presence channel (`ChannelSequence<PresenceChange>`: a snapshot first,
/// again after every resubscription, then additions and removals).
///
/// A sequence from ``PusherClient/events(on:named:authorization:buffering:)``,
/// ``PusherClient/events(on:named:buffering:)``, ``PusherClient/allEvents(buffering:)``,
/// ``PusherClient/userEvents(named:buffering:)`` or ``PusherClient/presence(on:authorization:)``
/// subscribes when iterated: making the iterator registers a consumer (a `for try await` loop makes it at
/// once), and the channel is subscribed on the server if nobody else listens to it yet. From then on
/// nothing is missed, even before the first `next()`; a sequence that is never iterated registers
/// nothing. When the iterating task is cancelled (the loop still gets the rest of the run its
/// iterator took, at most 127 elements, then ends), or the loop is left, the consumer is removed;
/// when the last consumer of a channel goes, `pusher:unsubscribe` is sent. Several consumers of one
/// channel share one server subscription, and each has its own buffer (see ``BufferingPolicy``).
///
/// The sequence handed to the body of
/// ``PusherClient/withSubscription(to:named:authorization:buffering:waitsForConfirmation:isolation:_:)``
/// or ``PusherClient/withUserEvents(named:buffering:isolation:_:)`` is that scope's consumer instead,
/// registered before the body runs and removed when it returns: iterating it subscribes nothing
/// more, and nothing sent in between is missed, however late the loop starts. Hand it to a child
/// task if you like; one loop iterates it at a time (a second concurrent loop throws
/// `invalidConfiguration`), a loop whose task is cancelled ends at its next `next()`, and a loop that
/// is left gives the buffer back to the next one, with the events it had taken and not returned.
///
/// The sequence finishes when the client stops (or the scope ends), and throws ``PusherError`` when
/// the channel name is invalid, the channel cannot be subscribed (unless
/// ``PusherClientConfiguration/subscriptionRetry`` subscribes it again: then the sequence waits),
/// or the consumer fell too far behind.
public struct ChannelSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// The channel, or nil for several channels, every channel or the signed-in user's events.
    public let channel: String?
    let source: ConsumerIterator<Element>.Source

    init(channel: String?, register: @escaping ConsumerIterator<Element>.Register) {
        self.channel = channel
        self.source = .registering(register)
    }

    init(channel: String?, held consumer: Consumer<Element>) {
        self.channel = channel
        self.source = .held(consumer)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: ConsumerIterator(self.source, channel: self.channel))
    }

    /// Iterates one consumer. It takes buffered elements a run at a time: use one iterator in one
    /// loop. A copy shares the consumer; a copy of an iterator that registered its consumer also
    /// repeats the elements the original had taken and not returned yet (one of a scope's sequence
    /// shares the run instead).
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

        /// How many times the loop took from its consumer's buffer (for the package's tests).
        package var takeCount: Int { self.base.consumer?.takeCount ?? 0 }
    }
}

@available(*, unavailable)
extension ChannelSequence.AsyncIterator: Sendable {}
