// SPDX-License-Identifier: MIT

/// The Salsa20/20 stream cipher with a 256-bit key, a 64-bit nonce and a 64-bit block counter, and
/// HSalsa20, which XSalsa20 uses to derive a key from a 24-byte nonce (D. J. Bernstein, "Salsa20
/// specification" and "Extending the Salsa20 nonce"). The state is 16 words on the stack; the rounds
/// are additions, XORs and rotations of 32-bit words only: no branch and no memory access depends on
/// the key, the nonce or the data.
struct Salsa20 {
    /// Sixteen 32-bit words: a block of the state or of the key stream.
    typealias Block = (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    )
    /// Eight 32-bit words: a 256-bit key.
    typealias Key = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// "expand 32-byte k", the four constant words of the state.
    private static let sigma: (UInt32, UInt32, UInt32, UInt32) = (0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574)

    private let key: Key
    private let nonce: (UInt32, UInt32)
    /// The number of the next key-stream block.
    private(set) var counter: UInt64

    /// Salsa20 with `key` and the 8-byte `nonce`, from block `counter`.
    init(key: Key, nonce: (UInt32, UInt32), counter: UInt64 = 0) {
        self.key = key
        self.nonce = nonce
        self.counter = counter
    }

    /// XSalsa20: Salsa20 with the key HSalsa20(`key`, the first 16 bytes of `nonce`) and the last 8 bytes of
    /// the 24-byte `nonce`. `key` holds 32 bytes.
    init(xsalsaKey key: UnsafeRawPointer, nonce: UnsafeRawPointer) {
        let subkey = Self.hsalsa20(key: Self.words(key), input: nonce)
        self.init(key: subkey, nonce: (Self.word(nonce, 16), Self.word(nonce, 20)))
    }

    /// The little-endian word at byte `offset` of `bytes`.
    @inline(__always)
    static func word(_ bytes: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The 32 bytes at `bytes` as eight little-endian words.
    static func words(_ bytes: UnsafeRawPointer) -> Key {
        (
            word(bytes, 0), word(bytes, 4), word(bytes, 8), word(bytes, 12),
            word(bytes, 16), word(bytes, 20), word(bytes, 24), word(bytes, 28)
        )
    }

    /// HSalsa20: the 20 rounds over the constants, `key` and the 16 bytes at `input`, without the final
    /// addition; the words at the constants' and the input's positions.
    static func hsalsa20(key: Key, input: UnsafeRawPointer) -> Key {
        let state: Block = (
            sigma.0, key.0, key.1, key.2, key.3, sigma.1, word(input, 0), word(input, 4),
            word(input, 8), word(input, 12), sigma.2, key.4, key.5, key.6, key.7, sigma.3
        )
        let x = Self.rounds(state)
        return (x.0, x.5, x.10, x.15, x.6, x.7, x.8, x.9)
    }

    /// The next 64 bytes of key stream, as 16 words (little-endian byte order within each word).
    @inline(__always)
    mutating func nextBlock() -> Block {
        let state: Block = (
            Self.sigma.0, key.0, key.1, key.2, key.3, Self.sigma.1, nonce.0, nonce.1,
            UInt32(truncatingIfNeeded: counter), UInt32(truncatingIfNeeded: counter &>> 32), Self.sigma.2,
            key.4, key.5, key.6, key.7, Self.sigma.3
        )
        counter &+= 1
        let x = Self.rounds(state)
        return (
            x.0 &+ state.0, x.1 &+ state.1, x.2 &+ state.2, x.3 &+ state.3,
            x.4 &+ state.4, x.5 &+ state.5, x.6 &+ state.6, x.7 &+ state.7,
            x.8 &+ state.8, x.9 &+ state.9, x.10 &+ state.10, x.11 &+ state.11,
            x.12 &+ state.12, x.13 &+ state.13, x.14 &+ state.14, x.15 &+ state.15
        )
    }

    /// Writes `count` bytes of `source` XOR the key stream to `destination` (which may be `source`),
    /// 64 bytes at a time.
    mutating func xor(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int) {
        var offset = 0
        while count &- offset >= 64 {
            Self.xor(self.nextBlock(), source + offset, into: destination + offset)
            offset &+= 64
        }
        if offset < count {
            Self.xor(self.nextBlock(), from: 0, source + offset, into: destination + offset, count: count &- offset)
        }
    }

    /// One whole block: the 64 bytes at `source` XOR `block` into `destination`.
    @inline(__always)
    static func xor(_ block: Block, _ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer) {
        @inline(__always)
        func pair(_ offset: Int, _ low: UInt32, _ high: UInt32) {
            let stream = UInt64(low) | UInt64(high) &<< 32
            let input = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            destination.storeBytes(of: (input ^ stream).littleEndian, toByteOffset: offset, as: UInt64.self)
        }
        pair(0, block.0, block.1)
        pair(8, block.2, block.3)
        pair(16, block.4, block.5)
        pair(24, block.6, block.7)
        pair(32, block.8, block.9)
        pair(40, block.10, block.11)
        pair(48, block.12, block.13)
        pair(56, block.14, block.15)
    }

    /// Part of a block: `count` bytes at `source` XOR the key-stream bytes of `block` from byte `start`
    /// into `destination` (`start + count` is at most 64).
    static func xor(
        _ block: Block, from start: Int, _ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer,
        count: Int
    ) {
        var stream: Block = (
            block.0.littleEndian, block.1.littleEndian, block.2.littleEndian, block.3.littleEndian,
            block.4.littleEndian, block.5.littleEndian, block.6.littleEndian, block.7.littleEndian,
            block.8.littleEndian, block.9.littleEndian, block.10.littleEndian, block.11.littleEndian,
            block.12.littleEndian, block.13.littleEndian, block.14.littleEndian, block.15.littleEndian
        )
        withUnsafeBytes(of: &stream) { stream in
            var index = 0
            while count &- index >= 8 {
                let input = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let key = stream.loadUnaligned(fromByteOffset: start &+ index, as: UInt64.self)
                destination.storeBytes(of: input ^ key, toByteOffset: index, as: UInt64.self)
                index &+= 8
            }
            while index < count {
                destination.storeBytes(
                    of: source.load(fromByteOffset: index, as: UInt8.self) ^ stream[start &+ index],
                    toByteOffset: index, as: UInt8.self)
                index &+= 1
            }
        }
    }

    /// The 20 rounds (10 double rounds: a column round, then a row round) over `state`.
    @inline(__always)
    private static func rounds(_ state: Block) -> Block {
        var (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) = state
        for _ in 0..<10 {
            quarterRound(&x0, &x4, &x8, &x12)
            quarterRound(&x5, &x9, &x13, &x1)
            quarterRound(&x10, &x14, &x2, &x6)
            quarterRound(&x15, &x3, &x7, &x11)
            quarterRound(&x0, &x1, &x2, &x3)
            quarterRound(&x5, &x6, &x7, &x4)
            quarterRound(&x10, &x11, &x8, &x9)
            quarterRound(&x15, &x12, &x13, &x14)
        }
        return (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15)
    }

    @inline(__always)
    private static func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
        b ^= rotated(a &+ d, 7)
        c ^= rotated(b &+ a, 9)
        d ^= rotated(c &+ b, 13)
        a ^= rotated(d &+ c, 18)
    }

    @inline(__always)
    private static func rotated(_ word: UInt32, _ count: UInt32) -> UInt32 {
        (word &<< count) | (word &>> (32 &- count))
    }
}
