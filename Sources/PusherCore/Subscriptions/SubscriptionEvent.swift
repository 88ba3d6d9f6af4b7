// SPDX-License-Identifier: MIT

/// A channel's subscription was confirmed or refused.
public enum SubscriptionEvent: Sendable, Hashable {
    /// The server confirmed the subscription. `isResubscription` is true when the channel had been
    /// subscribed on an earlier connection: events sent while the client was away were missed
    /// (Pusher keeps no history), so this is the moment to re-fetch state.
    case succeeded(channel: String, isResubscription: Bool)
    /// The subscription failed; the channel's event sequences end with `error`.
    case failed(channel: String, error: PusherError)

    public var channel: String {
        switch self {
        case .succeeded(let channel, _), .failed(let channel, _): channel
        }
    }
}
