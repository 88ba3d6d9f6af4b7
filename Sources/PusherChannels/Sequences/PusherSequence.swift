// SPDX-License-Identifier: MIT

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
