// SPDX-License-Identifier: MIT

/// NaCl's `crypto_secretbox_xsalsa20poly1305` in Swift, byte for byte libsodium's
/// `crypto_secretbox_easy` and `crypto_secretbox_open_easy`: the box is the 16-byte Poly1305 tag,
/// then the message XOR the XSalsa20 key stream from its byte 32; the stream's first 32 bytes are
/// the Poly1305 key. Works on the caller's buffers: nothing is allocated, the state lives on the
/// stack.
package enum XSalsa20Poly1305 {
    package static let keyLength = 32
    package static let nonceLength = 24
    package static let tagLength = 16

    /// Seals `message` with `key` (32 bytes) and `nonce` (24 bytes) into `box`, which holds exactly
    /// `message.count + 16` bytes and may start at `message`'s own address minus 16 or lie elsewhere.
    package static func seal(
        _ message: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        into box: UnsafeMutableRawBufferPointer
    ) {
        precondition(key.count == keyLength && nonce.count == nonceLength, "secretbox: bad key or nonce size")
        precondition(box.count == message.count &+ tagLength, "secretbox: the box has the wrong size")
        var stream = Salsa20(xsalsaKey: key.baseAddress!, nonce: nonce.baseAddress!)
        let first = stream.nextBlock()
        var poly = Poly1305(
            r: (UInt64(first.0) | UInt64(first.1) &<< 32, UInt64(first.2) | UInt64(first.3) &<< 32),
            s: (UInt64(first.4) | UInt64(first.5) &<< 32, UInt64(first.6) | UInt64(first.7) &<< 32))
        let ciphertext = box.baseAddress! + tagLength
        Self.encrypt(message, first: first, stream: &stream, into: ciphertext)
        poly.update(ciphertext, count: message.count)
        let tag = poly.tag()
        box.storeBytes(of: tag.0.littleEndian, toByteOffset: 0, as: UInt64.self)
        box.storeBytes(of: tag.1.littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// Opens `box` (the tag, then the ciphertext) with `key` and `nonce` into `message`, which holds
    /// exactly `box.count - 16` bytes. False, with `message` untouched, when the tag does not match:
    /// the box was not sealed with this key and nonce, or was altered. The tag is checked before anything
    /// is decrypted, in constant time.
    package static func open(
        _ box: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        into message: UnsafeMutableRawBufferPointer
    ) -> Bool {
        precondition(key.count == keyLength && nonce.count == nonceLength, "secretbox: bad key or nonce size")
        precondition(box.count >= tagLength && message.count == box.count &- tagLength, "secretbox: bad sizes")
        var stream = Salsa20(xsalsaKey: key.baseAddress!, nonce: nonce.baseAddress!)
        let first = stream.nextBlock()
        var poly = Poly1305(
            r: (UInt64(first.0) | UInt64(first.1) &<< 32, UInt64(first.2) | UInt64(first.3) &<< 32),
            s: (UInt64(first.4) | UInt64(first.5) &<< 32, UInt64(first.6) | UInt64(first.7) &<< 32))
        let ciphertext = UnsafeRawBufferPointer(rebasing: box[tagLength...])
        poly.update(ciphertext.baseAddress, count: ciphertext.count)
        let tag = poly.tag()
        // Every bit of both words is compared: one branch, on the OR of all differences.
        let difference =
            (tag.0 ^ UInt64(littleEndian: box.loadUnaligned(fromByteOffset: 0, as: UInt64.self)))
            | (tag.1 ^ UInt64(littleEndian: box.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        guard difference == 0 else { return false }
        if let output = message.baseAddress {
            Self.encrypt(ciphertext, first: first, stream: &stream, into: output)
        }
        return true
    }

    /// `input` XOR the key stream from byte 32 into `output`: the last 32 bytes of `first` (block 0),
    /// then `stream`'s blocks from 1.
    @inline(__always)
    private static func encrypt(
        _ input: UnsafeRawBufferPointer, first: Salsa20.Block, stream: inout Salsa20,
        into output: UnsafeMutableRawPointer
    ) {
        guard let source = input.baseAddress, !input.isEmpty else { return }
        let head = min(32, input.count)
        Salsa20.xor(first, from: 32, source, into: output, count: head)
        if input.count > head {
            stream.xor(source + head, into: output + head, count: input.count &- head)
        }
    }
}
