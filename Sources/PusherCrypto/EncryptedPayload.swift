// SPDX-License-Identifier: MIT

import ExtrasBase64
import PusherCore

/// The `data` of an event on a private-encrypted channel: the JSON text
/// `{"nonce": base64(24 bytes), "ciphertext": base64(secretbox)}`.
package enum EncryptedPayload {
    /// Opens `message`'s data with `key`. The per-event path of encrypted channels: the two fields
    /// are read with the scanner, base64 is decoded without Foundation, and the plaintext is
    /// written straight into the resulting string.
    package static func open(_ message: PusherMessage, key: [UInt8]) -> DecryptionStateMachine.Opened {
        let fields: EncryptedFields
        do {
            fields = try EncryptedFields(parsing: message.data ?? "")
        } catch {
            return .malformed(error.reason)
        }
        guard let nonce = try? Base64.decode(string: fields.nonce) else {
            return .malformed("the nonce is not valid base64")
        }
        guard let ciphertext = try? Base64.decode(string: fields.ciphertext) else {
            return .malformed("the ciphertext is not valid base64")
        }
        guard nonce.count == SecretBox.nonceLength else {
            return .malformed("the nonce has \(nonce.count) bytes instead of \(SecretBox.nonceLength)")
        }
        guard ciphertext.count >= SecretBox.macLength else {
            return .malformed(
                "the ciphertext has \(ciphertext.count) bytes, fewer than the \(SecretBox.macLength)-byte MAC")
        }
        return SecretBox.openText(ciphertext, nonce: nonce, key: key)
    }

    /// Seals `plaintext` as an event's data (server-side triggers, the fake server, tests); nil without
    /// libsodium.
    package static func seal(_ plaintext: String, key: [UInt8], nonce: [UInt8] = SecretBox.randomNonce()) -> String? {
        guard let ciphertext = SecretBox.seal(Array(plaintext.utf8), nonce: nonce, key: key) else { return nil }
        return #"{"nonce":""# + String(base64Encoding: nonce) + #"","ciphertext":""#
            + String(base64Encoding: ciphertext) + #""}"#
    }

    /// The 32-byte key of a `shared_secret`, or nil when it is not base64 of 32 bytes.
    package static func key(fromSharedSecret secret: String) -> [UInt8]? {
        guard let key = try? Base64.decode(string: secret), key.count == SecretBox.keyLength else { return nil }
        return key
    }
}
