// SPDX-License-Identifier: MIT
// libFuzzer target: the Swift secretbox (XSalsa20Poly1305) against libsodium's. The input's first 32
// bytes are the key and the next 24 the nonce (zero-padded when short), the rest the message: both
// must seal it to the same box, each must open the other's, a box with one bit flipped (chosen by
// the input) must be refused by both, and the message read as a box must get the same answer from
// both (a refusal, unless the input is a forgery).

import CSodium

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSecretbox(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let padded = bytes + [UInt8](repeating: 0, count: max(0, 56 - bytes.count))
    let key = Array(padded[0..<32])
    let nonce = Array(padded[32..<56])
    let message = Array(padded[56...])

    let swiftBox = swiftSeal(message, nonce: nonce, key: key)
    let sodiumBox = sodiumSeal(message, nonce: nonce, key: key)
    check(swiftBox == sodiumBox, "the boxes differ for a message of \(message.count) bytes")
    check(swiftOpen(sodiumBox, nonce: nonce, key: key) == message, "Swift does not open libsodium's box")
    check(sodiumOpen(swiftBox, nonce: nonce, key: key) == message, "libsodium does not open Swift's box")

    var altered = swiftBox
    let bit = Int(bytes.reduce(UInt32(count)) { $0 &* 31 &+ UInt32($1) } % UInt32(altered.count * 8))
    altered[bit / 8] ^= 1 << (bit % 8)
    check(swiftOpen(altered, nonce: nonce, key: key) == nil, "Swift opened a box with bit \(bit) flipped")
    check(sodiumOpen(altered, nonce: nonce, key: key) == nil, "libsodium opened a box with bit \(bit) flipped")

    if message.count >= 16 {
        check(
            swiftOpen(message, nonce: nonce, key: key) == sodiumOpen(message, nonce: nonce, key: key),
            "Swift and libsodium disagree on unsealed bytes")
    }
    return 0
}

private func swiftSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
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

private func swiftOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
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

private func sodiumSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8] {
    var box = [UInt8](repeating: 0, count: message.count + 16)
    let result = box.withUnsafeMutableBufferPointer { box in
        message.withUnsafeBufferPointer {
            crypto_secretbox_easy(box.baseAddress!, $0.baseAddress, UInt64($0.count), nonce, key)
        }
    }
    check(result == 0, "libsodium cannot seal")
    return box
}

private func sodiumOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
    // One byte more, so an empty plaintext has an address.
    var message = [UInt8](repeating: 0, count: box.count - 15)
    let result = message.withUnsafeMutableBufferPointer {
        crypto_secretbox_open_easy($0.baseAddress!, box, UInt64(box.count), nonce, key)
    }
    return result == 0 ? Array(message.dropLast()) : nil
}
