// SPDX-License-Identifier: MIT

#if canImport(CSodium)
import CSodium
import Testing

@testable import PusherCrypto

/// Salsa20, HSalsa20 and Poly1305 alone against libsodium, where the secretbox tests cannot reach: a
/// block counter crossing 2^32, and Poly1305 accumulators near 2^130 − 5 (the final reduction).
@Suite("Salsa20, HSalsa20 and Poly1305 against libsodium")
struct PrimitiveDifferentialTests {
    init() throws {
        try #require(Boxes.sodiumReady)
    }

    @Test("Salsa20 across the counter's 32-bit boundary", arguments: [0, 1, 0xffff_fffe, 0xffff_ffff, 1 << 40])
    func salsa20Counter(counter: UInt64) {
        var generator = SeededGenerator(seed: counter)
        let key = generator.bytes(32)
        let nonce = generator.bytes(8)
        let message = generator.bytes(64 * 3 + 5)
        var expected = [UInt8](repeating: 0, count: message.count)
        _ = crypto_stream_salsa20_xor_ic(&expected, message, UInt64(message.count), nonce, counter, key)
        var stream = key.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                Salsa20(
                    key: Salsa20.words(key.baseAddress!),
                    nonce: (Salsa20.word(nonce.baseAddress!, 0), Salsa20.word(nonce.baseAddress!, 4)), counter: counter)
            }
        }
        var output = [UInt8](repeating: 0, count: message.count)
        message.withUnsafeBytes { message in
            output.withUnsafeMutableBytes {
                stream.xor(message.baseAddress!, into: $0.baseAddress!, count: message.count)
            }
        }
        #expect(output == expected)
        #expect(stream.counter == counter &+ 4)
    }

    @Test("HSalsa20")
    func hsalsa20() {
        var generator = SeededGenerator(seed: 20)
        for _ in 0..<64 {
            let key = generator.bytes(32)
            let input = generator.bytes(16)
            var expected = [UInt8](repeating: 0, count: 32)
            _ = crypto_core_hsalsa20(&expected, input, key, nil)
            var words = key.withUnsafeBytes { key in
                input.withUnsafeBytes { Salsa20.hsalsa20(key: Salsa20.words(key.baseAddress!), input: $0.baseAddress!) }
            }
            let output = withUnsafeBytes(of: &words) { Array($0) }
            #expect(output == expected)
        }
    }

    /// Keys and messages that drive the accumulator to its largest values: r with every bit the
    /// clamp allows, messages of 0xff bytes, s of 0xff bytes (the final addition's carries).
    static let edgeKeys: [[UInt8]] = [
        [UInt8](repeating: 0xff, count: 32),
        [UInt8](repeating: 0xff, count: 16) + [UInt8](repeating: 0, count: 16),
        [2] + [UInt8](repeating: 0, count: 31),
        [1] + [UInt8](repeating: 0, count: 15) + [UInt8](repeating: 0xff, count: 16),
        [UInt8](repeating: 0, count: 32),
    ]

    @Test("Poly1305 on edge keys and messages, and random ones")
    func poly1305() {
        var generator = SeededGenerator(seed: 1305)
        var cases: [(key: [UInt8], message: [UInt8])] = []
        for key in Self.edgeKeys {
            for length in [0, 1, 15, 16, 17, 32, 63, 64, 100, 256] {
                cases.append((key, [UInt8](repeating: 0xff, count: length)))
                cases.append((key, [UInt8](repeating: 0, count: length)))
                cases.append((key, generator.bytes(length)))
            }
        }
        for length in 0..<300 { cases.append((generator.bytes(32), generator.bytes(length))) }
        var failed: [Int] = []
        for (index, (key, message)) in cases.enumerated() {
            var expected = [UInt8](repeating: 0, count: 16)
            _ = crypto_onetimeauth_poly1305(&expected, message, UInt64(message.count), key)
            if Boxes.poly1305(message, key: key) != expected { failed.append(index) }
        }
        #expect(failed == [])
    }
}
#endif
