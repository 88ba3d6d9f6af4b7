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
