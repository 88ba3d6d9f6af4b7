// SPDX-License-Identifier: MIT

/// A strict, allocation-light JSON scanner over UTF-8 bytes.
///
/// It is the hot-path reader of this package: every received frame passes through it once. It reads
/// strings (unescaping only when the string contains an escape), skips any other value while
/// validating it, and reports the byte range a value occupied so callers can keep the exact text.
struct JSONScanner: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int = 0
    private static let maximumDepth = 256

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { self.position >= self.bytes.count }

    /// Runs `body` over the UTF-8 bytes of `text`, making them contiguous first if needed.
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> R)
        throws(JSONError) -> R
    {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONError) -> R in try body(bytes) } }.get()
    }

    /// Runs `body` over `bytes` seen as UTF-8 code units.
    static func withBytes<R>(
        of bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> R
    ) throws(JSONError) -> R {
        try bytes.withMemoryRebound(to: UInt8.self) { bytes in Result { () throws(JSONError) -> R in try body(bytes) } }
            .get()
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while self.position < self.bytes.count {
            switch self.bytes[self.position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                self.position += 1
            default:
                return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    @inline(__always)
    mutating func peek() throws(JSONError) -> UInt8 {
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw JSONError("unexpected end of input") }
        return self.bytes[self.position]
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard try self.peek() == byte else {
            throw JSONError("expected '\(Character(Unicode.Scalar(byte)))' at byte \(self.position)")
        }
        self.position += 1
    }

    /// Consumes `byte` if it is next; returns whether it did.
    @inline(__always)
    mutating func consume(_ byte: UInt8) throws(JSONError) -> Bool {
        guard try self.peek() == byte else { return false }
        self.position += 1
        return true
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self.bytes[range]), as: UTF8.self)
    }

    /// Reads a string value (the opening quote must be next) and returns it unescaped.
    ///
    /// The string is built from the bytes in one copy: directly when it holds no escape (the common
    /// case), else by unescaping it into a buffer as long as its escaped form (unescaping never makes
    /// a string longer). Invalid UTF-8 is repaired with U+FFFD.
    mutating func readString() throws(JSONError) -> String {
        let (range, isEscaped) = try self.readRawString()
        return isEscaped ? self.unescapedText(range) : self.text(range)
    }

    /// ``readString()``, returning `candidate` itself (no new string) when the string, without
    /// escapes, has exactly its bytes.
    mutating func readString(reusing candidate: String) throws(JSONError) -> String {
        let (range, isEscaped) = try self.readRawString()
        if isEscaped { return self.unescapedText(range) }
        var candidate = candidate
        let bytes = UnsafeBufferPointer(rebasing: self.bytes[range])
        if candidate.utf8.count == bytes.count, candidate.withUTF8({ $0.elementsEqual(bytes) }) { return candidate }
        return self.text(range)
    }

    /// Reads a string value (the opening quote must be next) and hands its unescaped UTF-8 bytes to
    /// `body`; a string without escapes is handed over in place, without building a `String`.
    mutating func readString<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) throws(JSONError) -> R {
        let (range, isEscaped) = try self.readRawString()
        guard isEscaped else { return body(UnsafeBufferPointer(rebasing: self.bytes[range])) }
        var text = self.unescapedText(range)
        return text.withUTF8(body)
    }

    /// Reads and validates a string value (the opening quote must be next); returns the range between
    /// its quotes and whether it holds an escape.
    private mutating func readRawString() throws(JSONError) -> (range: Range<Int>, isEscaped: Bool) {
        try self.expect(UInt8(ascii: "\""))
        let start = self.position
        // Fast path: no escapes, so the bytes between the quotes are the string.
        let index = JSONEscaping.indexOfSpecialByte(in: self.bytes, from: start)
        guard index < self.bytes.count else { throw JSONError("unterminated string") }
        switch self.bytes[index] {
        case UInt8(ascii: "\""):
            self.position = index + 1
            return (start..<index, false)
        case UInt8(ascii: "\\"):
            break
        default:
            throw JSONError("control character in string")
        }
        self.position = index
        let end = try self.validateEscapedString()
        return (start..<end, true)
    }

    /// The string whose escaped form (validated, between the quotes) is `range`.
    private func unescapedText(_ range: Range<Int>) -> String {
        JSONEscaping.unescapedString(UnsafeBufferPointer(rebasing: self.bytes[range]))
    }

    /// Reads the rest of a string that has an escape at `position`, validating every escape, and
    /// returns the index of its closing quote.
    private mutating func validateEscapedString() throws(JSONError) -> Int {
        while true {
            self.position = JSONEscaping.indexOfSpecialByte(in: self.bytes, from: self.position)
            guard self.position < self.bytes.count else { throw JSONError("unterminated string") }
            let byte = self.bytes[self.position]
            self.position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return self.position - 1
            case UInt8(ascii: "\\"):
                guard self.position < self.bytes.count else { throw JSONError("unterminated escape") }
                let escaped = self.bytes[self.position]
                self.position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    _ = try self.readHex4()
                default:
                    throw JSONError("invalid escape")
                }
            default:
                if byte < 0x20 { throw JSONError("control character in string") }
            }
        }
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard self.position + 4 <= self.bytes.count else { throw JSONError("short unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = self.bytes[self.position]
            self.position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError("invalid unicode escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Skips one value of any kind, validating it, and returns the byte range it occupied.
    mutating func skipValue() throws(JSONError) -> Range<Int> {
        _ = try self.peek()
        let start = self.position
        try self.skipValue(depth: 0)
        return start..<self.position
    }

    private mutating func skipValue(depth: Int) throws(JSONError) {
        guard depth < Self.maximumDepth else { throw JSONError("nesting too deep") }
        switch try self.peek() {
        case UInt8(ascii: "\""):
            try self.skipString()
        case UInt8(ascii: "{"):
            self.position += 1
            if try self.consume(UInt8(ascii: "}")) { return }
            repeat {
                try self.skipString()
                try self.expect(UInt8(ascii: ":"))
                try self.skipValue(depth: depth + 1)
            } while try self.consume(UInt8(ascii: ","))
            try self.expect(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            self.position += 1
            if try self.consume(UInt8(ascii: "]")) { return }
            repeat {
                try self.skipValue(depth: depth + 1)
            } while try self.consume(UInt8(ascii: ","))
            try self.expect(UInt8(ascii: "]"))
        case UInt8(ascii: "t"):
            try self.skipLiteral("true")
        case UInt8(ascii: "f"):
            try self.skipLiteral("false")
        case UInt8(ascii: "n"):
            try self.skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try self.skipNumber()
        default:
            throw JSONError("unexpected byte at \(self.position)")
        }
    }

    /// Skips a string, validating it exactly as reading it does (every escape included).
    private mutating func skipString() throws(JSONError) {
        _ = try self.readRawString()
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard self.position + count <= self.bytes.count else { throw JSONError("truncated literal") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for index in 0..<count where self.bytes[self.position + index] != expected[index] {
            throw JSONError("invalid literal")
        }
        self.position += count
    }

    private mutating func skipNumber() throws(JSONError) {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if self.bytes[self.position] == UInt8(ascii: "-") { self.position += 1 }
        let integerStart = self.position
        while self.position < self.bytes.count, isDigit(self.bytes[self.position]) { self.position += 1 }
        guard self.position > integerStart else { throw JSONError("invalid number") }
        if self.position < self.bytes.count, self.bytes[self.position] == UInt8(ascii: ".") {
            self.position += 1
            let fractionStart = self.position
            while self.position < self.bytes.count, isDigit(self.bytes[self.position]) { self.position += 1 }
            guard self.position > fractionStart else { throw JSONError("invalid number") }
        }
        if self.position < self.bytes.count,
            self.bytes[self.position] == UInt8(ascii: "e") || self.bytes[self.position] == UInt8(ascii: "E")
        {
            self.position += 1
            if self.position < self.bytes.count,
                self.bytes[self.position] == UInt8(ascii: "+") || self.bytes[self.position] == UInt8(ascii: "-")
            {
                self.position += 1
            }
            let exponentStart = self.position
            while self.position < self.bytes.count, isDigit(self.bytes[self.position]) { self.position += 1 }
            guard self.position > exponentStart else { throw JSONError("invalid number") }
        }
    }
}
