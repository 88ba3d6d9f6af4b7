// SPDX-License-Identifier: MIT

import PusherCore

/// The events of a subscription held by a scope: ``PusherClient/withSubscription(to:named:authorization:buffering:waitsForConfirmation:isolation:_:)``
/// or ``PusherClient/withUserEvents(named:buffering:isolation:_:)``.
///
/// The consumer is registered before the scope's body runs and removed when the body returns, so
/// nothing sent in between is missed, however late the loop starts, and iterating it subscribes
/// nothing more. A loop whose task is cancelled ends at its next `next()`. The value is
/// `Sendable`: hand it to a child task. One loop iterates it at a time (a second concurrent
/// iterator throws `invalidConfiguration`); a loop that is left gives the buffer back to the next
/// one. The sequence finishes when the scope ends or the client stops, and
/// throws ``PusherError`` when the subscription fails or the consumer fell too far behind.
public struct ChannelSubscription: AsyncSequence, Sendable {
    public typealias Element = ChannelEvent
    public typealias Failure = PusherError

    /// The channel, or nil for the signed-in user's events.
    public let channel: String?
    let buffer: ConsumerBuffer<ChannelEvent>
    let claim: IterationClaim

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: self, holdsClaim: self.claim.take())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private enum State {
            case iterating(ConsumerBuffer<ChannelEvent>, IterationClaim.Holder)
            case refused(PusherError)
            case ended
        }

        private var state: State

        init(subscription: ChannelSubscription, holdsClaim: Bool) {
            if holdsClaim {
                self.state = .iterating(subscription.buffer, IterationClaim.Holder(subscription.claim))
            } else {
                self.state = .refused(
                    PusherError(
                        .invalidConfiguration, "another loop iterates this subscription", channel: subscription.channel
                    ))
            }
        }

        public mutating func next() async throws(PusherError) -> ChannelEvent? {
            try await self.next(isolation: nil)
        }

        /// Takes a buffered element without suspending; suspends only when none is buffered.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> ChannelEvent? {
            switch self.state {
            case .ended:
                return nil
            case .refused(let error):
                self.state = .ended
                throw error
            case .iterating(let buffer, _):
                // A cancelled task's loop ends now, even while events keep coming (the buffer
                // alone would hand them out as long as it has any); they stay for the next loop.
                if Task.isCancelled {
                    self.state = .ended
                    return nil
                }
                do {
                    if let element = try await buffer.next(isolation: actor) { return element }
                } catch {
                    self.state = .ended
                    throw error
                }
                self.state = .ended
                return nil
            }
        }
    }
}

@available(*, unavailable)
extension ChannelSubscription.AsyncIterator: Sendable {}
