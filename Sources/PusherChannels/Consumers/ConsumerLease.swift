// SPDX-License-Identifier: MIT

/// What an iterator holds of its ``Consumer``, shared by its copies: when the last one goes away (a
/// loop left with `break`, an iterator dropped unread, which cancels nothing), the lease ends what
/// the iterator had. A `registration` removes the consumer from its client; a `claim` (a loop over
/// a ``ChannelSequence`` that a `withSubscription` scope holds, which keeps the registration) lets
/// the next loop iterate, and gives the rest of its run back to the buffer, so that no element is
/// lost between loops.
///
/// Not `Sendable`: the iterators that hold it are not either. It owns no synchronisation of its
/// own: the consumer's lock makes both endings happen once.
final class ConsumerLease<Element: Sendable> {
    enum Kind {
        case registration
        case claim
    }

    let consumer: Consumer<Element>
    private let kind: Kind
    /// Whether this is a loop's claim on a consumer a scope holds.
    var isClaim: Bool { self.kind == .claim }
    /// The run of a claim's loop, kept here rather than in the iterator so that what the loop did
    /// not return goes back when the loop is left.
    var run = ConsumerRun<Element>()

    init(_ consumer: Consumer<Element>, _ kind: Kind) {
        self.consumer = consumer
        self.kind = kind
    }

    /// Takes the next run of a claim's loop, or waits (see ``Consumer/takeRun(into:)``): a buffered
    /// run is taken without any async call; only an empty buffer waits.
    func nextRun(isolation actor: isolated (any Actor)?) async throws(PusherError) -> Element? {
        if let element = self.consumer.takeRun(into: &self.run) { return element }
        return try await self.consumer.next(isolation: actor)
    }

    deinit {
        switch self.kind {
        case .registration: self.consumer.release()
        case .claim: self.consumer.returnClaim(unreturned: self.run.takeRest())
        }
    }
}
