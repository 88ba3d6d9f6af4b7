// SPDX-License-Identifier: MIT

/// A sequence of client notifications: connection states, errors, subscription outcomes.
///
/// Each iterator is its own consumer with its own buffer, registered when the iterator is made (a
/// `for await` loop makes it at once), so nothing published after that is missed. When it falls
/// behind, ``PusherClientOptions/notificationBuffering`` applies: by default nothing is lost, the
/// client stops reading from the socket until it catches up. It never throws, and finishes when
/// the client stops, the iterating task is cancelled, or (policy `fail`) it fell too far behind.
public struct PusherSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    let register: @Sendable () -> (ConsumerBuffer<Element>, ListenerToken)

    public func makeAsyncIterator() -> AsyncIterator {
        let (buffer, token) = self.register()
        return AsyncIterator(buffer: buffer, token: token)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private var buffer: ConsumerBuffer<Element>?
        private var token: ListenerToken?

        init(buffer: ConsumerBuffer<Element>, token: ListenerToken) {
            self.buffer = buffer
            self.token = token
        }

        public mutating func next() async -> Element? {
            await self.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard let buffer = self.buffer else { return nil }
            // A notification buffer that failed (policy `fail`) ends the loop like its end. A
            // cancelled task's loop ends at once, even while notifications keep coming.
            if !Task.isCancelled, let element = try? await buffer.next(isolation: actor) { return element }
            // The end, or the task was cancelled: the consumer goes.
            self.buffer = nil
            self.token?.release()
            self.token = nil
            return nil
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
