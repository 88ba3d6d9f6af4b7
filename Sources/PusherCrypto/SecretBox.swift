// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(CSodium)
import CSodium
#endif

/// NaCl secretbox (XSalsa20-Poly1305), from the system's libsodium.
package enum SecretBox {
    package static let keyLength = 32
    package static let nonceLength = 24
    package static let macLength = 16

    /// Whether this build can open encrypted channels (libsodium was available to link).
    package static var isAvailable: Bool {
        #if canImport(CSodium)
        return Self.initialized
        #else
        return false
        #endif
    }

    #if canImport(CSodium)
    /// `sodium_init` is thread-safe and idempotent; it fails only when the system has no entropy
    /// source, which opening a box does not need, but sealing (random nonces) does.
    private static let initialized: Bool = sodium_init() >= 0
    #endif

    /// The plaintext, or nil when the ciphertext was not sealed with `key` and `nonce` (or was altered).
    package static func open(_ ciphertext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        #if canImport(CSodium)
        guard Self.initialized, key.count == keyLength, nonce.count == nonceLength, ciphertext.count >= macLength else {
            return nil
        }
        // At least one byte, so the buffer has an address even for an empty plaintext.
        var plaintext = [UInt8](repeating: 0, count: max(1, ciphertext.count - macLength))
        let result = plaintext.withUnsafeMutableBufferPointer { output in
            crypto_secretbox_open_easy(output.baseAddress, ciphertext, UInt64(ciphertext.count), nonce, key)
        }
        return result == 0 ? Array(plaintext.prefix(ciphertext.count - macLength)) : nil
        #else
        return nil
        #endif
    }

    /// Opens a box whose plaintext is UTF-8 text, writing the plaintext into the string's storage.
    package static func openText(_ ciphertext: [UInt8], nonce: [UInt8], key: [UInt8]) -> DecryptionStateMachine.Opened {
        ciphertext.withUnsafeBufferPointer { ciphertext in
            nonce.withUnsafeBufferPointer { nonce in Self.openText(ciphertext, nonce: nonce, key: key) }
        }
    }

    /// ``openText(_:nonce:key:)`` on bytes where they lie (the per-event path decodes base64 into a
    /// scratch buffer).
    package static func openText(
        _ ciphertext: UnsafeBufferPointer<UInt8>, nonce: UnsafeBufferPointer<UInt8>, key: [UInt8]
    ) -> DecryptionStateMachine.Opened {
        #if canImport(CSodium)
        guard Self.initialized, key.count == keyLength, nonce.count == nonceLength, ciphertext.count >= macLength,
            let ciphertextStart = ciphertext.baseAddress, let nonceStart = nonce.baseAddress
        else {
            return .wrongKey
        }
        let length = ciphertext.count - macLength
        guard length > 0 else {
            return self.open(Array(ciphertext), nonce: Array(nonce), key: key) == nil ? .wrongKey : .plaintext("")
        }
        var opened = false
        var isUTF8 = true
        let text = String(unsafeUninitializedCapacity: length) { output in
            opened =
                crypto_secretbox_open_easy(
                    output.baseAddress, ciphertextStart, UInt64(ciphertext.count), nonceStart, key) == 0
            guard opened else { return 0 }
            // The string repairs invalid UTF-8 silently: check the bytes first (ASCII needs no more).
            let bytes = UnsafeBufferPointer(rebasing: output[..<length])
            if !Self.isASCII(bytes) { isUTF8 = String(validating: bytes, as: UTF8.self) != nil }
            return length
        }
        guard opened else { return .wrongKey }
        return isUTF8 ? .plaintext(text) : .malformed("the plaintext is not UTF-8")
        #else
        return .wrongKey
        #endif
    }

    /// Whether every byte of `bytes` is ASCII, eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var raw: UInt64 = 0
        var index = 0
        while index &+ 8 <= bytes.count {
            raw |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index &+= 8
        }
        while index < bytes.count {
            raw |= UInt64(base[index])
            index &+= 1
        }
        return raw & 0x8080_8080_8080_8080 == 0
    }

    /// Seals `plaintext`; nil when libsodium is not available or the key or nonce have the wrong size.
    package static func seal(_ plaintext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        #if canImport(CSodium)
        guard Self.initialized, key.count == keyLength, nonce.count == nonceLength else { return nil }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + macLength)
        let result = ciphertext.withUnsafeMutableBufferPointer { output in
            // `ciphertext` holds at least the 16-byte MAC, so it has an address.
            crypto_secretbox_easy(output.baseAddress!, plaintext, UInt64(plaintext.count), nonce, key)
        }
        return result == 0 ? ciphertext : nil
        #else
        return nil
        #endif
    }

    /// A random nonce, from libsodium's generator (the system's CSPRNG).
    package static func randomNonce() -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: nonceLength)
        #if canImport(CSodium)
        // 24 bytes, so the buffer has an address.
        nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        #else
        for index in nonce.indices { nonce[index] = UInt8.random(in: .min ... .max) }
        #endif
        return nonce
    }
}
