// SPDX-License-Identifier: MIT

extension WebhookEvent {
    /// What happened, from the event's `name`.
    public enum Kind: Sendable, Hashable {
        /// `channel_occupied`: the channel got its first subscriber.
        case channelOccupied
        /// `channel_vacated`: its last subscriber left.
        case channelVacated
        /// `member_added`: a user joined a presence channel (``WebhookEvent/userID``).
        case memberAdded
        /// `member_removed`: a user left a presence channel (``WebhookEvent/userID``).
        case memberRemoved
        /// `client_event`: a client sent ``WebhookEvent/event`` with ``WebhookEvent/data``.
        case clientEvent
        /// `cache_miss`: a client subscribed to a cache channel that has no cached event.
        case cacheMiss
        /// `subscription_count`: the channel's ``WebhookEvent/subscriptionCount`` changed.
        case subscriptionCount
        /// A name this library does not know; the event is kept with all its ``WebhookEvent/fields``.
        case unknown(String)

        /// The kind a `name` stands for.
        ///
        /// - Parameter name: The event's `name`.
        public init(name: String) {
            switch name {
            case "channel_occupied": self = .channelOccupied
            case "channel_vacated": self = .channelVacated
            case "member_added": self = .memberAdded
            case "member_removed": self = .memberRemoved
            case "client_event": self = .clientEvent
            case "cache_miss": self = .cacheMiss
            case "subscription_count": self = .subscriptionCount
            default: self = .unknown(name)
            }
        }
    }
}
