// SPDX-License-Identifier: MIT

import PusherCore

#if canImport(CSodium)
import CSodium
#endif

/// NaCl secretbox (XSalsa20-Poly1305): the system's libsodium on Linux, ``XSalsa20Poly1305`` (Swift)
/// on Apple platforms and on Linux with `PUSHER_CRYPTO=swift` (see ``Backend``). Both give the same
/// bytes.
package enum SecretBox {
    package static let keyLength = 32
    package static let nonceLength = 24
    package static let macLength = 16

    /// Whether encrypted channels can be opened here (false only with the ``Backend/unavailable`` backend).
    package static var isAvailable: Bool { Self.backend != .unavailable }

    /// The plaintext, or nil when the ciphertext was not sealed with `key` and `nonce` (or was altered).
    package static func open(_ ciphertext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        let backend = Self.backend
        guard backend != .unavailable, key.count == keyLength, nonce.count == nonceLength, ciphertext.count >= macLength
        else {
            return nil
        }
        // At least one byte, so the buffer has an address even for an empty plaintext.
        var plaintext = [UInt8](repeating: 0, count: max(1, ciphertext.count - macLength))
        let opened = ciphertext.withUnsafeBytes { box in
            nonce.withUnsafeBytes { nonce in
                key.withUnsafeBytes { key in
                    plaintext.withUnsafeMutableBytes { output in
                        Self.open(
                            box, nonce: nonce, key: key,
                            into: UnsafeMutableRawBufferPointer(rebasing: output[..<(box.count - macLength)]),
                            backend: backend)
                    }
                }
            }
        }
        return opened ? Array(plaintext.prefix(ciphertext.count - macLength)) : nil
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
        let backend = Self.backend
        guard backend != .unavailable, key.count == keyLength, nonce.count == nonceLength, ciphertext.count >= macLength
        else {
            return .wrongKey
        }
        let length = ciphertext.count - macLength
        return key.withUnsafeBytes { key in
            guard length > 0 else {
                let opened = Self.open(
                    UnsafeRawBufferPointer(ciphertext), nonce: UnsafeRawBufferPointer(nonce), key: key,
                    into: UnsafeMutableRawBufferPointer(start: nil, count: 0), backend: backend)
                return opened ? .plaintext("") : .wrongKey
            }
            var opened = false
            var isUTF8 = true
            let text = String(unsafeUninitializedCapacity: length) { output in
                opened = Self.open(
                    UnsafeRawBufferPointer(ciphertext), nonce: UnsafeRawBufferPointer(nonce), key: key,
                    into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output[..<length])),
                    backend: backend)
                guard opened else { return 0 }
                // The string repairs invalid UTF-8 silently: check the bytes first (ASCII needs no more).
                let bytes = UnsafeBufferPointer(rebasing: output[..<length])
                if !Self.isASCII(bytes) { isUTF8 = String(validating: bytes, as: UTF8.self) != nil }
                return length
            }
            guard opened else { return .wrongKey }
            return isUTF8 ? .plaintext(text) : .malformed("the plaintext is not UTF-8")
        }
    }

    /// Opens `box` into `output` (exactly `box.count - 16` bytes) with `backend`; the sizes are checked.
    private static func open(
        _ box: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer, backend: Backend
    ) -> Bool {
        switch backend {
        case .swift:
            return XSalsa20Poly1305.open(box, nonce: nonce, key: key, into: output)
        case .libsodium:
            #if canImport(CSodium)
            if let start = output.baseAddress {
                return crypto_secretbox_open_easy(
                    start.assumingMemoryBound(to: UInt8.self), box.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    UInt64(box.count), nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
            }
            // An empty plaintext: libsodium wants an address to write nothing to.
            var byte: UInt8 = 0
            return crypto_secretbox_open_easy(
                &byte, box.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(box.count),
                nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
            #else
            return false
            #endif
        case .unavailable:
            return false
        }
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

    /// Seals `plaintext`; nil without a backend or when the key or nonce have the wrong size.
    package static func seal(_ plaintext: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        let backend = Self.backend
        guard backend != .unavailable, key.count == keyLength, nonce.count == nonceLength else { return nil }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + macLength)
        plaintext.withUnsafeBytes { message in
            nonce.withUnsafeBytes { nonce in
                key.withUnsafeBytes { key in
                    ciphertext.withUnsafeMutableBytes { box in
                        switch backend {
                        case .swift:
                            XSalsa20Poly1305.seal(message, nonce: nonce, key: key, into: box)
                        case .libsodium:
                            #if canImport(CSodium)
                            // `box` holds at least the 16-byte MAC, so it has an address; libsodium reads
                            // nothing of an empty message. It cannot fail for valid sizes.
                            _ = crypto_secretbox_easy(
                                box.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
                                nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                key.baseAddress!.assumingMemoryBound(to: UInt8.self))
                            #else
                            break  // never chosen without libsodium
                            #endif
                        case .unavailable:
                            break  // refused above
                        }
                    }
                }
            }
        }
        return ciphertext
    }

    /// A random nonce: libsodium's generator with the libsodium backend, else the system's CSPRNG
    /// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random_buf` on Apple platforms).
    package static func randomNonce() -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: nonceLength)
        #if canImport(CSodium)
        if Self.backend == .libsodium {
            // 24 bytes, so the buffer has an address.
            nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
            return nonce
        }
        #endif
        var generator = SystemRandomNumberGenerator()
        nonce.withUnsafeMutableBytes { nonce in
            for offset in stride(from: 0, to: nonceLength, by: 8) {
                nonce.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        return nonce
    }
}
