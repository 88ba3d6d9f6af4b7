// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("JSON scanner")
struct JSONScannerTests {
    /// Reads one string value from `json` (whose first value must be a string).
    static func readString(_ json: String) throws(JSONError) -> String {
        try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> String in
            var scanner = JSONScanner(bytes)
            return try scanner.readString()
        }
    }

    /// Reads one string value from raw bytes.
    static func readString(bytes: [UInt8]) throws(JSONError) -> String {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> String in
                try JSONScanner.withBytes(of: raw) { (bytes) throws(JSONError) -> String in
                    var scanner = JSONScanner(bytes)
                    return try scanner.readString()
                }
            }
        }
        return try result.get()
    }

    /// The reason `readString` gives for `json`, or nil when it reads it.
    static func failure(_ json: String) -> String? {
        do {
            _ = try readString(json)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(
        "escapes decode to what they stand for",
        arguments: [
            (#""plain""#, "plain"),
            (#""""#, ""),
            (#""a\"b""#, "a\"b"),
            (#""back\\slash""#, "back\\slash"),
            (#""\/""#, "/"),
            (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u20AC""#, "Aé€"),
            (#""\u0000""#, "\u{0}"),
            (#""caf\u00E9 ok""#, "café ok"),
            (#""é😀 raw \n""#, "é😀 raw \n"),
        ]
    )
    func escapes(json: String, expected: String) throws {
        #expect(try Self.readString(json) == expected)
    }

    @Test(
        "surrogate pairs make one scalar; any other surrogate becomes U+FFFD and what follows is kept",
        arguments: [
            (#""\ud83d\ude00""#, "😀"),
            (#""\uD83D\uDE00!""#, "😀!"),
            (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
            (#""\uD800\u0041""#, "\u{FFFD}A"),
            (#""\uD800\uD83D\uDE00""#, "\u{FFFD}😀"),
            (#""\uD800\uD800""#, "\u{FFFD}\u{FFFD}"),
            (#""\uD800\n""#, "\u{FFFD}\n"),
            (#""\uD800abc""#, "\u{FFFD}abc"),
            (#""\uD800""#, "\u{FFFD}"),
            (#""\uDC00x""#, "\u{FFFD}x"),
            (#""\uDE00\uD83D""#, "\u{FFFD}\u{FFFD}"),
        ]
    )
    func surrogates(json: String, expected: String) throws {
        #expect(try Self.readString(json) == expected)
    }

    @Test(
        "invalid strings are refused with their reason",
        arguments: [
            (#""\x""#, "invalid escape"),
            (#""ok\x""#, "invalid escape"),
            (#""\u12G4""#, "invalid unicode escape"),
            (#""\uD800\u12G4""#, "invalid unicode escape"),
            (#""\u12"x"#, "invalid unicode escape"),
            (#""\u1"#, "short unicode escape"),
            (#""abc"#, "unterminated string"),
            (#""a\"bc"#, "unterminated string"),
            (#""abc\"#, "unterminated escape"),
            ("\"a\nb\"", "control character in string"),
            ("\"a\\nb\u{1F}\"", "control character in string"),
            ("\"\\x\u{1}\"", "invalid escape"),
            ("\"\u{1}\\x\"", "control character in string"),
            ("abc", "expected '\"' at byte 0"),
        ]
    )
    func invalid(json: String, reason: String) {
        #expect(Self.failure(json) == reason)
    }

    @Test("a string without escapes is handed over in place, without a copy")
    func fastPathInPlace() throws {
        let json = #"  "in place, no escapes" "#
        let offset = try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> Int? in
            var scanner = JSONScanner(bytes)
            let address = try scanner.readString { $0.baseAddress }
            let position = scanner.position
            #expect(position == json.utf8.count - 1)
            return address.map { $0 - bytes.baseAddress! }
        }
        #expect(offset == 3)
    }

    @Test("a string with escapes is handed over unescaped")
    func escapedBytes() throws {
        let json = #""tab\there""#
        let text = try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> String in
            var scanner = JSONScanner(bytes)
            return try scanner.readString { String(decoding: $0, as: UTF8.self) }
        }
        #expect(text == "tab\there")
    }

    @Test("reading stops after the closing quote, escaped or not")
    func position() throws {
        let json = #"["a\"b" , "c","\u00e9"]"#
        let values = try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> [String] in
            var scanner = JSONScanner(bytes)
            var values: [String] = []
            try scanner.expect(UInt8(ascii: "["))
            repeat { values.append(try scanner.readString()) } while try scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"))
            let isAtEnd = scanner.isAtEnd
            #expect(isAtEnd)
            return values
        }
        #expect(values == ["a\"b", "c", "é"])
    }

    /// Strings of every length up to 40 with a special character at every position: covers the
    /// eight-byte search at each offset within a word and at the ragged end.
    @Test("strings of every length round-trip with an escape at every position")
    func everyLengthAndPosition() throws {
        for length in 0...40 {
            let plain = String(repeating: "a", count: length)
            #expect(try Self.readString(JSONWriter.quoted(plain)) == plain)
            for position in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "é", "😀"] where length > 0 {
                    var characters = Array(plain)
                    characters[position] = Character(special)
                    let original = String(characters)
                    #expect(
                        try Self.readString(JSONWriter.quoted(original)) == original, "length \(length), at \(position)"
                    )
                }
            }
        }
    }

    @Test("long strings, plain and escaped, round-trip")
    func longStrings() throws {
        let plain = String(repeating: "0123456789abcdef", count: 4096)
        #expect(try Self.readString(JSONWriter.quoted(plain)) == plain)
        let escaped = String(repeating: "\"quoted\" \\ é😀\t" + String(repeating: "x", count: 97), count: 1000)
        #expect(try Self.readString(JSONWriter.quoted(escaped)) == escaped)
        let allEscapes = String(repeating: "\"", count: 100_000)
        #expect(try Self.readString(JSONWriter.quoted(allEscapes)) == allEscapes)
        let unicodeEscapes = String(repeating: #"\u00e9\ud83d\ude00"#, count: 10_000)
        #expect(try Self.readString("\"\(unicodeEscapes)\"") == String(repeating: "é😀", count: 10_000))
    }

    @Test("invalid UTF-8 is repaired the same way with and without escapes")
    func invalidUTF8() throws {
        let quote = UInt8(ascii: "\"")
        #expect(try Self.readString(bytes: [quote, 0xFF, UInt8(ascii: "a"), quote]) == "\u{FFFD}a")
        #expect(
            try Self.readString(bytes: [quote, 0xFF, UInt8(ascii: "\\"), UInt8(ascii: "n"), quote]) == "\u{FFFD}\n")
        #expect(
            try Self.readString(bytes: [quote, 0xC3, UInt8(ascii: "\\"), UInt8(ascii: "t"), quote]) == "\u{FFFD}\t")
    }

    /// The scanner's own search (for strings without escapes) notes bytes that are not ASCII at
    /// every position of a word, and ignores those after the closing quote.
    @Test("invalid UTF-8 is repaired wherever it is in a word, without escapes; bytes after the quote are not read")
    func invalidUTF8AtEveryPosition() throws {
        let quote = UInt8(ascii: "\"")
        for length in 1...20 {
            for position in 0..<length {
                var contents = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                contents[position] = 0xFF
                let text = try Self.readString(bytes: [quote] + contents + [quote, UInt8(ascii: "a")])
                #expect(text == String(decoding: contents, as: UTF8.self), "\(length), \(position)")
                #expect(text.unicodeScalars.contains("\u{FFFD}"))
            }
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(
                try Self.readString(bytes: [quote] + plain + [quote, 0xC3, 0xA9, 0xFF])
                    == String(repeating: "a", count: length))
        }
    }

    @Test(
        "values are skipped, validated, and their exact range reported",
        arguments: [
            (
                #" {"a" : [1, -2.5e+3, true, false, null, "x\"y"]} , "#,
                #"{"a" : [1, -2.5e+3, true, false, null, "x\"y"]}"#
            ),
            (#"[]"#, "[]"),
            (#"{}"#, "{}"),
            (#""\uD800\u0041""#, #""\uD800\u0041""#),
            (#"0"#, "0"),
        ]
    )
    func skipValue(json: String, expected: String) throws {
        let text = try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> String in
            var scanner = JSONScanner(bytes)
            return scanner.text(try scanner.skipValue())
        }
        #expect(text == expected)
    }

    @Test(
        "skipping refuses invalid values",
        arguments: ["tru", "01x", "-", "1.", "1e", "[1,]", #"{"a"}"#, #""\u12""#, "\"a", "@"])
    func skipInvalid(json: String) {
        #expect(throws: JSONError.self) {
            try JSONScanner.withBytes(of: json) { (bytes) throws(JSONError) -> Void in
                var scanner = JSONScanner(bytes)
                _ = try scanner.skipValue()
                // A number is read up to its last digit; what follows must be the end.
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw JSONError("trailing characters") }
            }
        }
    }
}
