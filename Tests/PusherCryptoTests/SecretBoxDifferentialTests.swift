// SPDX-License-Identifier: MIT

#if canImport(CSodium)
import CSodium
import Testing

@testable import PusherCrypto

/// The Swift secretbox against libsodium: the same boxes byte for byte, each opening the other's, and
/// every altered box refused by both. Seeded, so a failure repeats.
@Suite("Swift secretbox against libsodium")
struct SecretBoxDifferentialTests {
    init() throws {
        try #require(Boxes.sodiumReady)
    }

    /// Seals with both and opens each box with the other; the lengths whose case failed.
    static func mismatches(lengths: some Sequence<Int>, generator: inout SeededGenerator) -> [Int] {
        var failed: [Int] = []
        for length in lengths {
            let key = generator.bytes(32)
            let nonce = generator.bytes(24)
            let message = generator.bytes(length)
            let swiftBox = Boxes.swiftSeal(message, nonce: nonce, key: key)
            let sodiumBox = Boxes.sodiumSeal(message, nonce: nonce, key: key)
            if swiftBox != sodiumBox || Boxes.swiftOpen(sodiumBox, nonce: nonce, key: key) != message
                || Boxes.sodiumOpen(swiftBox, nonce: nonce, key: key) != message
            {
                failed.append(length)
            }
        }
        return failed
    }

    @Test("every length from 0 to 4 KiB: the same box, and each opens the other's")
    func everyLength() {
        var generator = SeededGenerator(seed: 34)
        #expect(Self.mismatches(lengths: 0...4096, generator: &generator) == [])
    }

    @Test("messages of 1 MiB and around it")
    func mebibyte() {
        var generator = SeededGenerator(seed: 1_048_576)
        let lengths = [1 << 20, (1 << 20) - 1, (1 << 20) + 17]
        #expect(Self.mismatches(lengths: lengths, generator: &generator) == [])
    }

    @Test(
        "every single-bit flip of the tag, the ciphertext, the nonce or the key is refused",
        arguments: [0, 1, 15, 16, 17, 31, 32, 33, 64, 100]
    )
    func bitFlips(length: Int) {
        var generator = SeededGenerator(seed: UInt64(length) &+ 7)
        let key = generator.bytes(32)
        let nonce = generator.bytes(24)
        let message = generator.bytes(length)
        let box = Boxes.swiftSeal(message, nonce: nonce, key: key)
        #expect(Boxes.swiftOpen(box, nonce: nonce, key: key) == message)
        var opened: [String] = []
        for bit in 0..<(box.count * 8) {
            var altered = box
            altered[bit / 8] ^= 1 << (bit % 8)
            if Boxes.swiftOpen(altered, nonce: nonce, key: key) != nil { opened.append("box bit \(bit), Swift") }
            if Boxes.sodiumOpen(altered, nonce: nonce, key: key) != nil { opened.append("box bit \(bit), libsodium") }
        }
        for bit in 0..<(24 * 8) {
            var altered = nonce
            altered[bit / 8] ^= 1 << (bit % 8)
            if Boxes.swiftOpen(box, nonce: altered, key: key) != nil { opened.append("nonce bit \(bit)") }
        }
        for bit in 0..<(32 * 8) {
            var altered = key
            altered[bit / 8] ^= 1 << (bit % 8)
            if Boxes.swiftOpen(box, nonce: nonce, key: altered) != nil { opened.append("key bit \(bit)") }
        }
        #expect(opened == [])
    }

    @Test("a refused box leaves the output untouched")
    func refusedOutputUntouched() {
        var generator = SeededGenerator(seed: 99)
        let key = generator.bytes(32)
        let nonce = generator.bytes(24)
        var box = Boxes.swiftSeal(generator.bytes(100), nonce: nonce, key: key)
        box[0] ^= 0x80
        var output = [UInt8](repeating: 0xA5, count: 100)
        let opened = box.withUnsafeBytes { box in
            nonce.withUnsafeBytes { nonce in
                key.withUnsafeBytes { key in
                    output.withUnsafeMutableBytes { XSalsa20Poly1305.open(box, nonce: nonce, key: key, into: $0) }
                }
            }
        }
        #expect(!opened)
        #expect(output == [UInt8](repeating: 0xA5, count: 100))
    }
}
#endif
