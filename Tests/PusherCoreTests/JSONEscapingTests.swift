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

    /// Reads the string whose contents, then closing quote, are `contents` (from the start).
    static func unescapedString(_ contents: String) throws(JSONError) -> (text: String, end: Int) {
        try JSONScanner.withBytes(of: contents) { (bytes) throws(JSONError) in
            try JSONEscaping.unescapedString(bytes, from: 0)
        }
    }

    static func unescapedString(bytes: [UInt8]) throws(JSONError) -> (text: String, end: Int) {
        let result = bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONError) in try JSONEscaping.unescapedString(bytes, from: 0) }
        }
        return try result.get()
    }

    /// The reason reading `contents` fails with, or nil when it reads.
    static func failure(_ contents: String) -> String? {
        do {
            _ = try unescapedString(contents)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(
        "string contents unescape in one pass, into at most as many bytes, up to the closing quote",
        arguments: [
            (#"no escapes at all"#, "no escapes at all"),
            (#"\"\\\/\b\f\n\r\t"#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#"\u0024\u00A2\u20AC\uD800\uDF48"#, "$¢€𐍈"),
            (#"\uD800\u0041"#, "\u{FFFD}A"),
            (#"\uDFFF"#, "\u{FFFD}"),
            (#"a\uD83Db"#, "a\u{FFFD}b"),
            (#"\uabcd\uABCD\uFfFf"#, "\u{ABCD}\u{ABCD}\u{FFFF}"),
            (String(repeating: #"x\""#, count: 50), String(repeating: "x\"", count: 50)),
        ]
    )
    func unescape(contents: String, expected: String) throws {
        let (text, end) = try Self.unescapedString(contents + #""after""#)
        #expect(text == expected)
        #expect(end == contents.utf8.count)
        #expect(text.utf8.count <= contents.utf8.count)
    }

    @Test("escapes and errors at the end of the input: in the last word, or in the bytes after it", arguments: 0...17)
    func escapesAtTheEnd(padding: Int) throws {
        let pad = String(repeating: "p", count: padding)
        #expect(try Self.unescapedString(pad + #"\n""#).text == pad + "\n")
        #expect(try Self.unescapedString(pad + #"\u00e9""#).text == pad + "é")
        #expect(try Self.unescapedString(pad + #"\ud83d\ude00""#).text == pad + "😀")
        #expect(try Self.unescapedString(pad + #"\ud83d""#).text == pad + "\u{FFFD}")
        #expect(try Self.unescapedString(pad + #"\"""#).text == pad + "\"")
        let failures = [
            (#"\"#, "unterminated escape"), (#"\u00e"#, "short unicode escape"), (#"\u00"#, "short unicode escape"),
            (#"\""#, "unterminated string"), (#"\n"#, "unterminated string"), (#"\ud83d\ude0"#, "short unicode escape"),
            (#"\ud83d\u"#, "short unicode escape"), (#"\u00eg""#, "invalid unicode escape"),
            ("\\n\u{1}\"", "control character in string"), (#"\q""#, "invalid escape"),
        ]
        for (contents, reason) in failures {
            #expect(Self.failure(pad + contents) == reason, "padding \(padding): \(contents)")
        }
    }

    /// A byte that is not ASCII makes the string's bytes be checked as UTF-8 (and repaired) wherever
    /// it is in its word; one after the closing quote, in the same word, is no part of the string.
    @Test("bytes that are not ASCII are checked at every position of a word; those after the quote are not")
    func nonASCIIAtEveryPosition() throws {
        for length in 1...20 {
            for position in 0..<length {
                for escaped in [false, true] {
                    var contents = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    contents[position] = 0xFF
                    if escaped { contents.insert(contentsOf: Array(#"\t"#.utf8), at: 0) }
                    let (text, end) = try Self.unescapedString(bytes: contents + [UInt8(ascii: "\"")])
                    var expected = contents
                    if escaped { expected.replaceSubrange(0..<2, with: [0x09]) }
                    #expect(text == String(decoding: expected, as: UTF8.self), "\(length), \(position), \(escaped)")
                    #expect(text.unicodeScalars.contains("\u{FFFD}"))
                    #expect(end == contents.count)
                }
            }
            let after = [UInt8](repeating: UInt8(ascii: "a"), count: length) + [UInt8(ascii: "\""), 0xC3, 0xA9, 0xFF]
            #expect(try Self.unescapedString(bytes: after).text == String(repeating: "a", count: length))
            let escapedAfter = Array(#"\n"#.utf8) + after
            #expect(try Self.unescapedString(bytes: escapedAfter).text == "\n" + String(repeating: "a", count: length))
        }
    }
}
