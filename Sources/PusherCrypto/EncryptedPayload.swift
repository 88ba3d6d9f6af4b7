// SPDX-License-Identifier: MIT

import ExtrasBase64
import PusherCore

/// The `data` of an event on a private-encrypted channel: the JSON text
/// `{"nonce": base64(24 bytes), "ciphertext": base64(secretbox)}`.
package enum EncryptedPayload {
    /// Opens `message`'s data with `key`. The per-event path of encrypted channels: the two fields
    /// are read with the scanner where they lie in the data, base64 is decoded from there into
    /// one scratch buffer (on the stack for events of a few hundred bytes), and the plaintext is
    /// written straight into the resulting string: one allocation, the plaintext's.
    package static func open(_ message: PusherMessage, key: [UInt8]) -> DecryptionStateMachine.Opened {
        // The data's bytes where the message keeps them: no string of the data is made.
        message.withDataBytes { data in Self.open(data: data, key: key) }
            ?? Self.open(data: UnsafeBufferPointer(start: nil, count: 0), key: key)
    }

    /// Opens the encrypted data in `data` (its JSON text's UTF-8 bytes) with `key`.
    private static func open(data: UnsafeBufferPointer<UInt8>, key: [UInt8]) -> DecryptionStateMachine.Opened {
        do {
            return try EncryptedFields.withFieldBytes(of: data) { nonce, ciphertext in
                Self.open(nonceText: nonce, ciphertextText: ciphertext, key: key)
            }
        } catch {
            return .malformed(error.reason)
        }
    }

    /// Decodes the base64 texts of the two fields and opens the box.
    private static func open(
        nonceText: UnsafeBufferPointer<UInt8>, ciphertextText: UnsafeBufferPointer<UInt8>, key: [UInt8]
    ) -> DecryptionStateMachine.Opened {
        let nonceCapacity = Base64.decodedLength(bytesCount: nonceText.count)
        let ciphertextCapacity = Base64.decodedLength(bytesCount: ciphertextText.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: nonceCapacity + ciphertextCapacity) {
            scratch -> DecryptionStateMachine.Opened in
            let nonceBuffer = UnsafeMutableBufferPointer(rebasing: scratch[..<nonceCapacity])
            let ciphertextBuffer = UnsafeMutableBufferPointer(rebasing: scratch[nonceCapacity...])
            guard let nonceCount = Self.decode(nonceText, into: nonceBuffer) else {
                return .malformed("the nonce is not valid base64")
            }
            guard let ciphertextCount = Self.decode(ciphertextText, into: ciphertextBuffer) else {
                return .malformed("the ciphertext is not valid base64")
            }
            guard nonceCount == SecretBox.nonceLength else {
                return .malformed("the nonce has \(nonceCount) bytes instead of \(SecretBox.nonceLength)")
            }
            guard ciphertextCount >= SecretBox.macLength else {
                return .malformed(
                    "the ciphertext has \(ciphertextCount) bytes, fewer than the \(SecretBox.macLength)-byte MAC")
            }
            return SecretBox.openText(
                UnsafeBufferPointer(rebasing: ciphertextBuffer[..<ciphertextCount]),
                nonce: UnsafeBufferPointer(rebasing: nonceBuffer[..<nonceCount]), key: key)
        }
    }

    /// Decodes base64 `text` into `output` (at least `Base64.decodedLength` of it long); returns
    /// how many bytes it wrote, or nil when `text` is not valid base64.
    private static func decode(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        guard !text.isEmpty else { return 0 }
        var span = output.mutableSpan
        return try? Base64.decode(bytes: text.span, into: &span)
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
