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
/// one, with the events it had taken and not returned. The sequence finishes when the scope ends or the client stops, and
/// throws ``PusherError`` when the subscription fails or the consumer fell too far behind.
public struct ChannelSubscription: AsyncSequence, Sendable {
    public typealias Element = ChannelEvent
    public typealias Failure = PusherError

    /// The channel, or nil for the signed-in user's events.
    public let channel: String?
    let consumer: Consumer<ChannelEvent>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: self)
    }

    /// Iterates the subscription's consumer, a run of buffered events at a time, under one lock.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// The loop's claim on the consumer; nil once the loop ended.
        private var lease: ConsumerLease<ChannelEvent>?
        /// Why the loop may not iterate: another loop holds the claim.
        private var refusal: PusherError?

        init(subscription: ChannelSubscription) {
            if subscription.consumer.claim() {
                self.lease = ConsumerLease(subscription.consumer, .claim)
            } else {
                self.refusal = PusherError(
                    .invalidConfiguration, "another loop iterates this subscription", channel: subscription.channel)
            }
        }

        public mutating func next() async throws(PusherError) -> ChannelEvent? {
            try await self.next(isolation: nil)
        }

        /// Returns a buffered element without suspending; suspends only when none is buffered.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PusherError) -> ChannelEvent? {
            if let refusal = self.refusal {
                self.refusal = nil
                throw refusal
            }
            guard let lease = self.lease else { return nil }
            // A cancelled task's loop ends now, even while events keep coming (the buffer alone
            // would hand them out as long as it has any); they stay for the next loop, with the
            // rest of the run (the lease gives it back).
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

        /// How many times the loop took from the consumer's buffer (for the package's tests).
        package var takeCount: Int { self.lease?.consumer.takeCount ?? 0 }
    }
}

@available(*, unavailable)
extension ChannelSubscription.AsyncIterator: Sendable {}
