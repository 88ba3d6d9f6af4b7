// SPDX-License-Identifier: MIT

import PusherCore

/// A channel consumer: the events of one channel (optionally of one event name), of every channel
/// the client is subscribed to, or the membership changes of a presence channel.
///
/// Iterating subscribes: the first `next()` registers the consumer, and the channel is subscribed
/// on the server if nobody else listens to it yet. When the iterating task is cancelled, or the
/// loop is left, the consumer is removed; when the last consumer of a channel goes,
/// `pusher:unsubscribe` is sent. Several consumers of one channel share one server subscription,
/// and each has its own buffer (see ``BufferingPolicy``).
///
/// The sequence finishes when the client stops, and throws ``PusherError`` when the channel name
/// is invalid, the channel cannot be subscribed, or the consumer fell too far behind.
public struct ChannelSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = PusherError

    typealias Register = @Sendable () async throws(PusherError) -> (ConsumerBuffer<Element>, ListenerToken)?
    let register: Register

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(state: .notStarted(self.register))
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        enum State {
            case notStarted(Register)
            case iterating(ConsumerBuffer<Element>, ListenerToken)
            case finished
        }

        var state: State

        public mutating func next() async throws(PusherError) -> Element? {
            try await self.next(isolation: nil)
        }

        /// Takes a buffered element without suspending; suspends only when none is buffered.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
            let buffer: ConsumerBuffer<Element>
            switch self.state {
            case .finished:
                return nil
            case .iterating(let current, _):
                buffer = current
            case .notStarted(let register):
                guard !Task.isCancelled else {
                    self.state = .finished
                    return nil
                }
                do {
                    guard let (newBuffer, token) = try await register() else {
                        self.state = .finished
                        return nil
                    }
                    buffer = newBuffer
                    self.state = .iterating(newBuffer, token)
                } catch {
                    self.state = .finished
                    throw error
                }
            }
            do {
                if let element = try await buffer.next(isolation: actor) { return element }
                // The end, or the task was cancelled: the token's release unsubscribes.
                self.state = .finished
                return nil
            } catch {
                self.state = .finished
                throw error
            }
        }
    }
}

@available(*, unavailable)
extension ChannelSequence.AsyncIterator: Sendable {}

/// Events of a channel (or of all channels with consumers). See ``ChannelSequence``.
public typealias ChannelEventSequence = ChannelSequence<ChannelEvent>
/// Membership changes of a presence channel: a snapshot first (again after every resubscription),
/// then additions and removals. See ``ChannelSequence``.
public typealias PresenceChangeSequence = ChannelSequence<PresenceChange>

/// A sequence of client notifications: connection states, errors, subscription outcomes.
///
/// Each iterator is its own consumer with its own buffer, registered when the iterator is made (a
/// `for await` loop makes it at once), so nothing published after that is missed. It never throws,
/// and finishes when the client stops or the iterating task is cancelled.
public struct PusherSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    let register: @Sendable () -> (AsyncStream<Element>, ListenerToken)

    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, token) = self.register()
        return AsyncIterator(iterator: stream.makeAsyncIterator(), token: token)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: AsyncStream<Element>.Iterator
        let token: ListenerToken

        public mutating func next() async -> Element? {
            await self.iterator.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await self.iterator.next(isolation: actor)
        }
    }
}

@available(*, unavailable)
extension PusherSequence.AsyncIterator: Sendable {}

/// Connection states, starting with the current one.
public typealias ConnectionStateSequence = PusherSequence<ConnectionState>
/// Errors the client reports: connection closes, server `pusher:error`s, malformed frames.
public typealias PusherErrorSequence = PusherSequence<PusherError>
/// Subscription confirmations and refusals.
public typealias SubscriptionEventSequence = PusherSequence<SubscriptionEvent>
