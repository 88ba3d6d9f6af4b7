// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("JSON string bytes")
struct JSONEscapingTests {
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    static func indexOfSpecialByte(_ bytes: [UInt8], from index: Int = 0) -> Int {
        bytes.withUnsafeBufferPointer { JSONEscaping.indexOfSpecialByte(in: $0, from: index) }
    }

    @Test("every byte value is found, or passed over, at every position of a word and of the ragged end")
    func everyByteAtEveryPosition() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<19 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
                bytes[position] = byte
                let expected = Self.isSpecial(byte) ? position : bytes.count
                #expect(Self.indexOfSpecialByte(bytes) == expected, "byte \(byte) at \(position)")
            }
        }
    }

    @Test(
        "the first special byte wins, whatever follows it in its word",
        arguments: [
            ([0x61, 0x22, 0x00, 0x5C, 0x61, 0x61, 0x61, 0x61, 0x61], 1),
            ([0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], 0),
            ([0x80, 0xFF, 0xC3, 0xA9, 0x7F, 0x20, 0x21, 0x5B, 0x5D, 0x1F], 9),
            ([0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x21, 0x5C, 0x22], 7),
            ([], 0),
        ]
    )
    func firstWins(bytes: [UInt8], expected: Int) {
        #expect(Self.indexOfSpecialByte(bytes) == expected)
    }

    @Test("the search starts at the index it is given")
    func startIndex() {
        let bytes = Array(#"ab"cdefghijklmno\p"#.utf8)
        #expect(Self.indexOfSpecialByte(bytes, from: 0) == 2)
        #expect(Self.indexOfSpecialByte(bytes, from: 3) == 16)
        #expect(Self.indexOfSpecialByte(bytes, from: 17) == bytes.count)
        #expect(Self.indexOfSpecialByte(bytes, from: bytes.count) == bytes.count)
    }

    @Test(
        "validated string contents unescape into at most as many bytes",
        arguments: [
            (#"no escapes at all"#, "no escapes at all"),
            (#"\"\\\/\b\f\n\r\t"#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#"\u0024\u00A2\u20AC\uD800\uDF48"#, "$¢€𐍈"),
            (#"\uD800\u0041"#, "\u{FFFD}A"),
            (#"\uDFFF"#, "\u{FFFD}"),
            (#"a\uD83Db"#, "a\u{FFFD}b"),
            (String(repeating: #"x\""#, count: 50), String(repeating: "x\"", count: 50)),
        ]
    )
    func unescape(contents: String, expected: String) {
        var contents = contents
        let text = contents.withUTF8 { JSONEscaping.unescapedString($0) }
        #expect(text == expected)
        #expect(text.utf8.count <= contents.utf8.count)
    }
}
