// SPDX-License-Identifier: MIT

/// An event of a private-encrypted channel that could not be delivered, and why.
public struct DecryptionFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The payload is not `{"nonce", "ciphertext"}` with valid base64 of the right lengths. No
        /// reload is tried: a new key cannot help.
        case malformedPayload
        /// The channel's key (after one reload) does not open the ciphertext.
        case cannotDecrypt
        /// The key reload after a failure did not succeed (authorizer error or timeout).
        case reloadFailed
        /// The connection was lost, or the channel unsubscribed, before the event could be opened.
        case channelGone
        /// Too many events arrived while the channel's key was reloading
        /// (`PusherClientConfiguration.maximumHeldEncryptedEvents`); this one was not kept.
        case heldEventsLimit
        /// The server sent a `pusher:` event in plain text on the encrypted channel. Nothing proves
        /// it came from the app, so it was dropped (only `pusher:cache_miss` is delivered, without
        /// its data).
        case notEncrypted
    }

    public var channel: String
    /// The event's name.
    public var event: String
    public var reason: Reason
    /// Details for people (never the key or the plaintext).
    public var message: String

    public init(channel: String, event: String, reason: Reason, message: String) {
        self.channel = channel
        self.event = event
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(self.reason) on \(self.channel) (\(self.event)): \(self.message)" }
}
