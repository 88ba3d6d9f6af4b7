// SPDX-License-Identifier: MIT

import PusherCore
import PusherCrypto

/// Reads the body of a webhook whose signature was verified: `{"time_ms": …, "events": [{…}, …]}`,
/// decrypting the client events of private-encrypted channels when a master key is given.
package enum WebhookDecoder {
    /// The webhook in `body`.
    ///
    /// - Throws: ``PusherServerError`` `invalidWebhook` when the body is not UTF-8 JSON, not an
    ///   object, or its `events` is not an array of objects. A client event that does not decrypt is
    ///   not an error here: it is kept and marked (``WebhookEvent/decryptionError``).
    package static func decode(_ body: [UInt8], masterKey: [UInt8]?) throws(PusherServerError) -> Webhook {
        let text = String(decoding: body, as: UTF8.self)
        // Decoding repairs invalid UTF-8 with replacement characters: refuse it instead.
        guard text.utf8.elementsEqual(body) else {
            throw PusherServerError(.invalidWebhook, "the webhook body is not UTF-8")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: text)
        } catch {
            throw PusherServerError(.invalidWebhook, "the webhook body is not JSON (\(error.message))")
        }
        guard case .object(let object) = json else {
            throw PusherServerError(.invalidWebhook, "the webhook body is not a JSON object")
        }
        guard case .array(let values) = object["events"] else {
            throw PusherServerError(.invalidWebhook, "the webhook body has no \"events\" array")
        }
        var events: [WebhookEvent] = []
        events.reserveCapacity(values.count)
        for value in values {
            guard case .object = value else {
                throw PusherServerError(.invalidWebhook, "an element of the webhook's \"events\" is not an object")
            }
            var event = WebhookEvent(fields: value)
            if let masterKey { Self.decrypt(&event, masterKey: masterKey) }
            events.append(event)
        }
        return Webhook(timeMs: object["time_ms"], events: events)
    }

    /// Opens the data of a client event on a private-encrypted channel with the channel's key, or
    /// marks the event with the reason it did not open. Other events are left as they are.
    package static func decrypt(_ event: inout WebhookEvent, masterKey: [UInt8]) {
        guard event.kind == .clientEvent, let channel = event.channel, ChannelName.isEncrypted(channel) else { return }
        guard SecretBox.isAvailable else {
            event.decryptionError = PusherServerError(
                .invalidWebhook, "this build cannot decrypt encrypted channels (libsodium was not available)")
            return
        }
        let key = EncryptionMasterKey.channelKey(forChannel: channel, masterKey: masterKey)
        let message = PusherMessage(event: event.event ?? "", channel: channel, data: event.data)
        switch EncryptedPayload.open(message, key: key) {
        case .plaintext(let plaintext):
            event.data = plaintext
            event.isDecrypted = true
            if case .object(var fields) = event.fields {
                fields["data"] = .string(plaintext)
                event.fields = .object(fields)
            }
        case .malformed(let reason):
            event.decryptionError = PusherServerError(
                .invalidWebhook, "the encrypted data of a client event on \(channel) is malformed: \(reason)")
        case .wrongKey:
            event.decryptionError = PusherServerError(
                .invalidWebhook,
                "the data of a client event on \(channel) does not open with the channel's key (from the master key)")
        }
    }
}
