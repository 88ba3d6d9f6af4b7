// SPDX-License-Identifier: MIT

@testable import PusherCrypto

#if canImport(CSodium)
import CSodium
#endif

/// Sealing and opening on arrays, with the Swift implementation and (on Linux) with libsodium
/// directly, whatever the process's backend is.
enum Boxes {
    static func swiftSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: message.count + 16)
        message.withUnsafeBytes { message in
            nonce.withUnsafeBytes { nonce in
                key.withUnsafeBytes { key in
                    box.withUnsafeMutableBytes { XSalsa20Poly1305.seal(message, nonce: nonce, key: key, into: $0) }
                }
            }
        }
        return box
    }

    static func swiftOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        var message = [UInt8](repeating: 0, count: box.count - 16)
        let opened = box.withUnsafeBytes { box in
            nonce.withUnsafeBytes { nonce in
                key.withUnsafeBytes { key in
                    message.withUnsafeMutableBytes { XSalsa20Poly1305.open(box, nonce: nonce, key: key, into: $0) }
                }
            }
        }
        return opened ? message : nil
    }

    /// The Poly1305 tag of `message` under the 32-byte one-time `key`.
    static func poly1305(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { key in
            func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            var poly = Poly1305(r: (word(0), word(8)), s: (word(16), word(24)))
            message.withUnsafeBytes { poly.update($0.baseAddress, count: $0.count) }
            var tag = poly.tag()
            tag = (tag.0.littleEndian, tag.1.littleEndian)
            return withUnsafeBytes(of: &tag) { Array($0) }
        }
    }

    #if canImport(CSodium)
    static let sodiumReady: Bool = sodium_init() >= 0

    static func sodiumSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: message.count + 16)
        let result = box.withUnsafeMutableBufferPointer { box in
            message.withUnsafeBufferPointer { message in
                crypto_secretbox_easy(box.baseAddress!, message.baseAddress, UInt64(message.count), nonce, key)
            }
        }
        precondition(result == 0)
        return box
    }

    static func sodiumOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        // One byte more, so an empty plaintext has an address.
        var message = [UInt8](repeating: 0, count: box.count - 15)
        let result = message.withUnsafeMutableBufferPointer {
            crypto_secretbox_open_easy($0.baseAddress!, box, UInt64(box.count), nonce, key)
        }
        return result == 0 ? Array(message.dropLast()) : nil
    }
    #endif
}
