// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

/// The scanner's fast paths (a short key from one eight-byte load, a repeated name compared in
/// place) against the general string reader, on the same inputs.
@Suite("JSON scanner fast paths")
struct JSONScannerFastPathTests {
    /// What reading one string from `input` gave: its unescaped bytes and the position after it,
    /// or the error's reason.
    enum Outcome: Equatable {
        case read([UInt8], end: Int)
        case failed(String)
    }

    /// The general reader's answer.
    static func general(_ input: [UInt8]) -> Outcome {
        Self.scan(input) { (scanner: inout JSONScanner) throws(JSONError) -> Outcome in
            let bytes = try scanner.readString { Array($0) }
            return .read(bytes, end: scanner.position)
        }
    }

    static func scan(_ input: [UInt8], _ body: (inout JSONScanner) throws(JSONError) -> Outcome) -> Outcome {
        input.withUnsafeBytes { raw in
            do throws(JSONError) {
                return try JSONScanner.withBytes(of: raw) { (bytes) throws(JSONError) -> Outcome in
                    var scanner = JSONScanner(bytes)
                    return try body(&scanner)
                }
            } catch {
                return .failed(error.reason)
            }
        }
    }

    /// String contents of every length up to 10 with, at each place, nothing special or one of an
    /// escaped quote, an escaped backslash, a `\u` escape, a raw two-byte character, a raw control
    /// byte; each followed by a quote and 0 to 9 more bytes, or cut short.
    static var inputs: [[UInt8]] {
        let specials: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u0041"#.utf8), Array("é".utf8), [0x0A],
        ]
        var contents: [[UInt8]] = []
        for length in 0...10 {
            let plain = [UInt8](repeating: UInt8(ascii: "k"), count: length)
            contents.append(plain)
            for place in 0..<length {
                for special in specials {
                    contents.append(Array(plain[..<place]) + special + Array(plain[(place + 1)...]))
                }
            }
        }
        var inputs: [[UInt8]] = []
        for content in contents {
            let string = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            for tail in 0...9 {
                inputs.append(string + Array(":1234567".utf8.prefix(tail)) + (tail > 8 ? [UInt8(ascii: "}")] : []))
            }
            inputs.append(Array(string.dropLast()))
            inputs.append(Array(" \n".utf8) + string + Array(":1}".utf8))
        }
        return inputs
    }

    @Test("a short key read from one load is the string the general reader reads, ending at the same place")
    func shortPlainString() {
        var taken = 0
        for input in Self.inputs {
            let fast = Self.scan(input) { (scanner: inout JSONScanner) throws(JSONError) -> Outcome in
                guard let key = try scanner.readShortPlainString() else {
                    // Nothing was read: the general reader goes on from the same place.
                    let bytes = try scanner.readString { Array($0) }
                    return .read(bytes, end: scanner.position)
                }
                taken += 1
                let (word, count) = (key.word, key.count)
                #expect(count <= 7)
                #expect(count == 0 || word >> (UInt64(count) * 8) == 0, "bytes above the string are zero")
                let bytes = (0..<count).map { UInt8(truncatingIfNeeded: word >> (UInt64($0) * 8)) }
                return .read(bytes, end: scanner.position)
            }
            #expect(fast == Self.general(input), "\(String(decoding: input, as: UTF8.self))")
        }
        // Without escapes, at most seven bytes and nine bytes left: taken.
        #expect(taken > 100)
    }

    @Test(
        "the protocol's keys are read from one load when nine bytes are left",
        arguments: [
            "event", "channel", "data", "user_id",
        ])
    func protocolKeys(key: String) {
        let input = Array(#""\#(key)":"x"}"#.utf8)
        let fast = Self.scan(input) { (scanner: inout JSONScanner) throws(JSONError) -> Outcome in
            guard let key = try scanner.readShortPlainString() else { return .failed("not taken") }
            let bytes = (0..<key.count).map { UInt8(truncatingIfNeeded: key.word >> (UInt64($0) * 8)) }
            return .read(bytes, end: scanner.position)
        }
        #expect(fast == .read(Array(key.utf8), end: key.utf8.count + 2))
    }

    /// Names as they may follow each other on a busy connection: repeated, longer, shorter, with
    /// escapes (of the same text or not), not ASCII, cut short.
    static let names: [String] = [
        #""""#, #""a""#, #""a""#, #""ab""#, #""abc""#, #""abc""#, #""abcd""#, #""ab""#, #""a\"b""#, #""a"b""#,
        #""a\\b""#, #""a\u0062""#, #""ab""#, #""ab\u0022""#, #""ab"""#, #""é""#, #""é""#, #""é\n""#,
        #""bench-200000""#, #""bench-200000""#, #""bench-200001""#, #""bench-2000000""#, #""bench-20000""#,
        #""bench-20000"#,
        #""bench-20000""#, #""private-encrypted-prices""#, #""private-encrypted-prices""#,
        #""private-encrypted-pricez""#,
        #""private-encrypted-prices""#,
        #""private-encrypted-price\u0073""#, #""private-encrypted-prices""#, #""""#, #"" x""#,
    ]

    @Test("a name read against the latest one is what the general reader reads, repeated or not")
    func reusedNames() {
        var recent = ""
        var reused = 0
        for name in Self.names {
            for suffix in ["", ",", #"}"#, #"\"#] {
                let input = Array((name + suffix).utf8)
                let before = recent
                let fast = Self.scan(input) { (scanner: inout JSONScanner) throws(JSONError) -> Outcome in
                    let text = try scanner.readString(reusing: &recent)
                    if text.utf8.count > 15, text == before, Self.address(text) == Self.address(before) { reused += 1 }
                    return .read(Array(text.utf8), end: scanner.position)
                }
                let general = Self.scan(input) { (scanner: inout JSONScanner) throws(JSONError) -> Outcome in
                    let text = try scanner.readString()
                    return .read(Array(text.utf8), end: scanner.position)
                }
                #expect(fast == general, "\(name + suffix) after \(before)")
                // Only a name read without escapes is kept: it has no quote, backslash or control byte.
                #expect(!recent.utf8.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 })
            }
        }
        // The long names that repeat are the same string.
        #expect(reused >= 8)
    }

    /// The address of `text`'s UTF-8 bytes: equal for two strings that share their storage.
    static func address(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
