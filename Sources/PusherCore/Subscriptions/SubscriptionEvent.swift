// SPDX-License-Identifier: MIT

/// A channel's subscription was confirmed or refused.
public enum SubscriptionEvent: Sendable, Hashable {
    /// The server confirmed the subscription. `isResubscription` is true when the channel had been
    /// subscribed on an earlier connection (or before a refusal that was retried, see
    /// ``SubscriptionRetry``): events sent while the client was away were missed (Pusher keeps no
    /// history), so this is the moment to re-fetch state. `missedWindow` says which window to
    /// re-fetch; it is set exactly when `isResubscription` is true.
    case succeeded(channel: String, isResubscription: Bool, missedWindow: MissedWindow? = nil)
    /// The subscription failed. With ``SubscriptionRetry/never`` the channel's event sequences end
    /// with `error`; with a retry policy they keep going and the client subscribes again.
    case failed(channel: String, error: PusherError)

    public var channel: String {
        switch self {
        case .succeeded(let channel, _, _), .failed(let channel, _): channel
        }
    }

    /// The window a resubscribed channel may have missed events in; nil for a first subscription
    /// and for a failure.
    public var missedWindow: MissedWindow? {
        if case .succeeded(_, _, let window) = self { window } else { nil }
    }
}
