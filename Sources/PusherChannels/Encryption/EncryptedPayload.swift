// SPDX-License-Identifier: MIT

import Foundation
import PusherCore

/// The `data` of an event on a private-encrypted channel: the JSON text
/// `{"nonce": base64(24 bytes), "ciphertext": base64(secretbox)}`.
package enum EncryptedPayload {
    /// Opens `message`'s data with `key`.
    static func open(_ message: PusherMessage, key: [UInt8]) -> DecryptionStateMachine.Opened {
        guard let data = try? message.parsedData(), case .object = data else {
            return .malformed("the data is not a JSON object")
        }
        guard let nonceText = data["nonce"]?.stringValue else { return .malformed("the data has no string \"nonce\"") }
        guard let ciphertextText = data["ciphertext"]?.stringValue else { return .malformed("the data has no string \"ciphertext\"") }
        guard let nonce = Data(base64Encoded: nonceText) else { return .malformed("the nonce is not valid base64") }
        guard let ciphertext = Data(base64Encoded: ciphertextText) else { return .malformed("the ciphertext is not valid base64") }
        guard nonce.count == SecretBox.nonceLength else {
            return .malformed("the nonce has \(nonce.count) bytes instead of \(SecretBox.nonceLength)")
        }
        guard ciphertext.count >= SecretBox.macLength else {
            return .malformed("the ciphertext has \(ciphertext.count) bytes, fewer than the \(SecretBox.macLength)-byte MAC")
        }
        guard let plaintext = SecretBox.open(Array(ciphertext), nonce: Array(nonce), key: key) else { return .wrongKey }
        guard let text = String(validating: plaintext, as: UTF8.self) else { return .malformed("the plaintext is not UTF-8") }
        return .plaintext(text)
    }

    /// Seals `plaintext` as an event's data (for the fake server and tests); nil without libsodium.
    package static func seal(_ plaintext: String, key: [UInt8], nonce: [UInt8] = SecretBox.randomNonce()) -> String? {
        guard let ciphertext = SecretBox.seal(Array(plaintext.utf8), nonce: nonce, key: key) else { return nil }
        return #"{"nonce":""# + Data(nonce).base64EncodedString() + #"","ciphertext":""# + Data(ciphertext).base64EncodedString() + #""}"#
    }

    /// The 32-byte key of a `shared_secret`, or nil when it is not base64 of 32 bytes.
    static func key(fromSharedSecret secret: String) -> [UInt8]? {
        guard let key = Data(base64Encoded: secret), key.count == SecretBox.keyLength else { return nil }
        return Array(key)
    }
}
