// SPDX-License-Identifier: MIT

/// One event of a verified ``Webhook``.
///
/// The typed properties are read from ``fields``, the event object as it was sent; a field that is
/// absent (or not of the expected type) is `nil`. Events of names this library does not know are
/// kept as ``Kind/unknown(_:)``.
///
/// A `client_event` on a `private-encrypted-` channel arrives encrypted. When the verifier has the
/// encryption master key, ``data`` is the plaintext and ``isDecrypted`` is `true`; when the data
/// does not open, the event is kept as sent (``data`` is the encrypted payload) and
/// ``decryptionError`` says why, so one bad event never costs you the others.
public struct WebhookEvent: Sendable {
    /// What happened, from ``name``.
    public var kind: Kind
    /// The event's `name`, as sent.
    public var name: String
    /// The channel it concerns (`channel`).
    public var channel: String?
    /// The user who joined or left (`user_id`, numbers as their text), or who sent a client event.
    public var userID: String?
    /// A client event's name (`event`).
    public var event: String?
    /// A client event's data (`data`): the plaintext when ``isDecrypted``.
    public var data: String?
    /// The connection that sent a client event (`socket_id`).
    public var socketID: String?
    /// The channel's subscription count (`subscription_count`).
    public var subscriptionCount: Int?
    /// The event object as sent, with `data` replaced by the plaintext when ``isDecrypted``.
    public var fields: JSONValue
    /// Whether ``data`` was decrypted with the channel's key.
    public var isDecrypted: Bool
    /// Why the data of an encrypted channel's client event did not decrypt (code
    /// ``PusherServerError/Code/invalidWebhook``); `nil` when there was nothing to decrypt, no
    /// master key to decrypt with, or it decrypted.
    public var decryptionError: PusherServerError?

    /// Reads an event object as a webhook carries it (nothing is decrypted).
    ///
    /// - Parameter fields: The event object; a value that is not an object gives an event with no
    ///   fields and an empty name.
    public init(fields: JSONValue) {
        let name = fields["name"]?.stringValue ?? ""
        self.kind = Kind(name: name)
        self.name = name
        self.channel = fields["channel"]?.stringValue
        self.userID = fields["user_id"]?.idValue
        self.event = fields["event"]?.stringValue
        self.data = fields["data"].map { $0.stringValue ?? $0.jsonText }
        self.socketID = fields["socket_id"]?.stringValue
        self.subscriptionCount = fields["subscription_count"]?.intValue
        self.fields = fields
        self.isDecrypted = false
        self.decryptionError = nil
    }
}

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
