// SPDX-License-Identifier: MIT

/// What a subscription does after the authorizer or the server refused it.
///
/// With ``never`` (the default) a refusal ends the channel's event sequences with the error, as it
/// always did; subscribing again is up to the application. With ``backoff(_:)`` the client
/// subscribes again by itself after a capped, jittered delay and the sequences keep going:
///
/// ```swift
/// var configuration = PusherClientConfiguration(cluster: "eu")
/// configuration.subscriptionRetry = .backoff()  // 1 s, doubling, capped at 60 s, 20 % jitter
/// ```
///
/// A retry follows an authorizer that throws or does not answer within
/// `PusherClientConfiguration.authorizationTimeout`, an authorization the channel cannot use, a
/// `pusher:subscription_error` from the server (soketi and Laravel Reverb send one for a refused
/// authorization), and a `pusher:error` that names the channel. Every
/// failure is still reported on `PusherClient.subscriptionEvents(on:)` (as
/// ``SubscriptionEvent/failed(channel:error:)``) and on `PusherClient.errors`; the consumers are
/// not ended. Meanwhile the channel is not subscribed: its sequences get no events, and none are
/// replayed (Pusher keeps no history). The delay starts afresh after a success. A refusal that no
/// retry can mend is not retried: `authorizationRequired` (no authorizer, or a provided
/// authorization used up by a reconnect) and `invalidConfiguration` (an authorizer set up wrong).
///
/// The retry stops as soon as the channel has no consumer left: cancelling the last task that
/// iterates it, or leaving its loop, cancels the pending retry at once.
public struct SubscriptionRetry: Sendable, Hashable {
    /// The delays between attempts, or nil for ``never``. ``Backoff/maximumAttempts`` counts
    /// retries in a row: once they are used up the next failure ends the consumers, as with
    /// ``never``. ``Backoff/resetAfter`` is not used: a confirmed subscription resets the delays.
    public var backoff: Backoff?

    /// Creates a policy: retry with `backoff`, or never with nil. Users spell these ``backoff(_:)``
    /// and ``never``.
    package init(backoff: Backoff?) {
        self.backoff = backoff
    }

    /// A refusal ends the channel's sequences with the error (the default).
    public static let never = SubscriptionRetry(backoff: nil)

    /// Subscribe again after a refusal, waiting the delays of `backoff` (by default 1 s, doubling,
    /// capped at 60 s, 20 % jitter, unlimited attempts).
    public static func backoff(_ backoff: Backoff = Self.defaultBackoff) -> SubscriptionRetry {
        SubscriptionRetry(backoff: backoff)
    }

    /// The delays of ``backoff(_:)`` when none are given: 1 s, doubling, capped at 60 s, 20 %
    /// jitter, unlimited attempts.
    public static let defaultBackoff = Backoff(
        initialDelay: .seconds(1), maximumDelay: .seconds(60), multiplier: 2, jitter: 0.2)
}
