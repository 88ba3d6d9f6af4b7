// SPDX-License-Identifier: MIT

/// The time a resubscribed channel may have missed events in: from the last moment the client knew
/// the channel was subscribed to the moment the server confirmed it again.
///
/// Pusher keeps no history, so whatever the server published in this window never reaches the
/// client. Re-fetch exactly this window (with your own clock's margin) from your application's
/// source of truth. Both instants are on the client's clock (the one passed to
/// `PusherClient.init(key:configuration:clock:logger:transport:)`, the continuous clock by default), as the time
/// elapsed since the client was created.
///
/// ``lastKnownSubscribed`` is when the connection that carried the subscription last delivered
/// anything (an event, a ping's answer, any frame), not when its loss was noticed: events sent
/// after that moment may have been lost with the connection. When a subscription failed while
/// connected and was made again (see ``SubscriptionRetry``), it is the moment of that failure.
public struct MissedWindow: Sendable, Hashable {
    /// The last moment the client knew the channel was subscribed.
    public var lastKnownSubscribed: Duration
    /// The moment the server confirmed the subscription again.
    public var subscribedAgain: Duration

    /// Creates a window from `lastKnownSubscribed` to `subscribedAgain`, both on the client's clock
    /// as the time since the client was created. The client makes these; creating one is for tests
    /// that compare a ``SubscriptionEvent`` with an expected one.
    public init(lastKnownSubscribed: Duration, subscribedAgain: Duration) {
        self.lastKnownSubscribed = lastKnownSubscribed
        self.subscribedAgain = subscribedAgain
    }

    /// How long the channel may have missed events.
    public var duration: Duration { self.subscribedAgain - self.lastKnownSubscribed }
}
