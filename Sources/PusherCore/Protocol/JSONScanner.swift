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
    mutating func peek() throws(JSONError) -> UInt8 {
        self.skipWhitespace()
        guard self.position < self.bytes.count else { throw JSONError("unexpected end of input") }
        return self.bytes[self.position]
    }

    mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard try self.peek() == byte else {
            throw JSONError("expected '\(Character(Unicode.Scalar(byte)))' at byte \(self.position)")
        }
        self.position += 1
    }

    /// Consumes `byte` if it is next; returns whether it did.
    mutating func consume(_ byte: UInt8) throws(JSONError) -> Bool {
        guard try self.peek() == byte else { return false }
        self.position += 1
        return true
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self.bytes[range]), as: UTF8.self)
    }

    /// Reads a string value (the opening quote must be next) and returns it unescaped.
    mutating func readString() throws(JSONError) -> String {
        try self.expect(UInt8(ascii: "\""))
        let start = self.position
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            if byte == UInt8(ascii: "\"") {
                let value = self.text(start..<self.position)
                self.position += 1
                return value
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONError("control character in string") }
            self.position += 1
        }
        guard self.position < self.bytes.count else { throw JSONError("unterminated string") }
        var scalars = String.UnicodeScalarView()
        var utf8 = Array(UnsafeBufferPointer(rebasing: self.bytes[start..<self.position]))
        while true {
            guard self.position < self.bytes.count else { throw JSONError("unterminated string") }
            let byte = self.bytes[self.position]
            self.position += 1
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard self.position < self.bytes.count else { throw JSONError("unterminated escape") }
                let escaped = self.bytes[self.position]
                self.position += 1
                switch escaped {
                case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try self.readUnicodeEscape()
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw JSONError("invalid escape")
                }
            default:
                if byte < 0x20 { throw JSONError("control character in string") }
                utf8.append(byte)
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

    /// Reads the four hex digits after `\u` (and a following low surrogate when needed).
    private mutating func readUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let first = try self.readHex4()
        if (0xD800...0xDBFF).contains(first) {
            // A high surrogate must be followed by `\uDC00`–`\uDFFF`.
            guard self.position + 2 <= self.bytes.count,
                self.bytes[self.position] == UInt8(ascii: "\\"),
                self.bytes[self.position + 1] == UInt8(ascii: "u")
            else { return Unicode.Scalar(0xFFFD)! }
            self.position += 2
            let second = try self.readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { return Unicode.Scalar(0xFFFD)! }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(combined) ?? Unicode.Scalar(0xFFFD)!
        }
        return Unicode.Scalar(first) ?? Unicode.Scalar(0xFFFD)!
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

    private mutating func skipString() throws(JSONError) {
        try self.expect(UInt8(ascii: "\""))
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            self.position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard self.position < self.bytes.count else { break }
                if self.bytes[self.position] == UInt8(ascii: "u") {
                    self.position += 1
                    _ = try self.readHex4()
                } else {
                    self.position += 1
                }
            default:
                if byte < 0x20 { throw JSONError("control character in string") }
            }
        }
        throw JSONError("unterminated string")
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

/// Why a piece of JSON could not be read.
struct JSONError: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes, making them contiguous first if needed.
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(JSONError) -> R) throws(JSONError) -> R {
        var copy = self
        let result = copy.withUTF8 { buffer in Result { () throws(JSONError) -> R in try body(buffer) } }
        return try result.get()
    }
}
