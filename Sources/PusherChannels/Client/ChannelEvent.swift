// SPDX-License-Identifier: MIT

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PusherCore

/// One event received on a channel.
public struct ChannelEvent: Sendable, Hashable {
    /// The channel the event arrived on.
    public var channel: String
    /// The event name, e.g. `new-price` or `client-typing`.
    public var name: String
    /// The event's data exactly as received: the JSON string's content for double-encoded data (how
    /// Pusher sends it), or the exact JSON text when a server sends an object. Empty when the message
    /// had no data.
    public var data: String
    /// The sender's user id, present on client events of presence channels (set by the server, so
    /// it can be trusted).
    public var userID: String?

    public init(channel: String, name: String, data: String, userID: String? = nil) {
        self.channel = channel
        self.name = name
        self.data = data
        self.userID = userID
    }

    /// Whether this is `pusher:cache_miss`: the first event of a cache channel when the server has no
    /// cached last event, so the app should fetch the initial state itself.
    public var isCacheMiss: Bool { self.name == PusherEventName.cacheMiss }

    /// Decodes ``data`` as JSON into `type`.
    ///
    /// - Throws: ``PusherError`` with code `decodingFailed`, carrying the decoder's error as `cause`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws(PusherError) -> T {
        do {
            return try decoder.decode(type, from: Data(self.data.utf8))
        } catch {
            throw PusherError(
                .decodingFailed,
                "could not decode '\(self.name)' data as \(T.self)",
                channel: self.channel,
                cause: error
            )
        }
    }
}

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
