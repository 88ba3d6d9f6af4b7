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
    /// A string without escapes (the common case) is found, validated and checked for ASCII in one
    /// pass, then copied into a `String` once. At its first escape, one loop reads it again from its
    /// start: it finds its end, validates every escape and writes the unescaped bytes into a buffer,
    /// which are copied into the `String`. Bytes known to be valid UTF-8 (raw ASCII, and what escapes
    /// stand for) are not checked again; other bytes are, and invalid UTF-8 is repaired with U+FFFD.
    mutating func readString() throws(JSONError) -> String {
        switch try self.readPlainString() {
        case .plain(let range, let raw):
            return JSONEscaping.string(
                UnsafeBufferPointer(rebasing: self.bytes[range]), isValidUTF8: JSONEscaping.isASCII(raw),
                isASCII: JSONEscaping.isASCII(raw))
        case .escaped(let start, _):
            let (text, end) = try JSONEscaping.unescapedString(self.bytes, from: start)
            self.position = end + 1
            return text
        }
    }

    /// ``readString()`` for a name that often repeats: returns `recent` itself (no new string) when
    /// the string has exactly its bytes, and keeps a new string read without escapes in `recent`.
    ///
    /// `recent` only ever holds a string read without escapes, so it has no quote, backslash or
    /// control byte: when its bytes follow the opening quote and a quote follows them, that is the
    /// whole string, and no byte of it needs to be searched for an escape.
    mutating func readString(reusing recent: inout String) throws(JSONError) -> String {
        try self.expect(UInt8(ascii: "\""))
        let start = self.position
        let bytes = self.bytes
        let matches = recent.withUTF8 { candidate in
            let end = start &+ candidate.count
            return end < bytes.count && bytes[end] == UInt8(ascii: "\"")
                && Self.equal(candidate, UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        if matches {
            self.position = start &+ recent.utf8.count &+ 1
            return recent
        }
        self.position = start &- 1
        switch try self.readPlainString() {
        case .plain(let range, let raw):
            recent = JSONEscaping.string(
                UnsafeBufferPointer(rebasing: self.bytes[range]), isValidUTF8: JSONEscaping.isASCII(raw),
                isASCII: JSONEscaping.isASCII(raw))
            return recent
        case .escaped(let start, _):
            let (text, end) = try JSONEscaping.unescapedString(self.bytes, from: start)
            self.position = end + 1
            return text
        }
    }

    /// Reads a string of at most seven bytes without escapes, such as a short object key, from one
    /// eight-byte load, and returns its bytes (the first in the lowest byte of `word`, the bytes
    /// above its `count` zero); nil, having read nothing, when the next value is not such a string
    /// or fewer than nine bytes are left (read it with ``readString(_:)``).
    @inline(__always)
    mutating func readShortPlainString() throws(JSONError) -> (word: UInt64, count: Int)? {
        guard try self.peek() == UInt8(ascii: "\""), self.position &+ 9 <= self.bytes.count,
            let base = self.bytes.baseAddress
        else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + (self.position &+ 1)).loadUnaligned(as: UInt64.self))
        let found = JSONEscaping.specialBytes(in: word)
        guard found != 0 else { return nil }
        let count = found.trailingZeroBitCount &>> 3
        guard base[self.position &+ 1 &+ count] == UInt8(ascii: "\"") else { return nil }
        self.position &+= count &+ 2
        return (word & ((1 &<< (UInt64(count) &<< 3)) &- 1), count)
    }

    /// Whether `lhs` and `rhs` (of the same length) hold the same bytes, eight at a time.
    @inline(__always)
    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return lhs.count == 0 }
        var index = 0
        while index &+ 8 <= lhs.count {
            guard
                UnsafeRawPointer(left + index).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(right + index).loadUnaligned(as: UInt64.self)
            else { return false }
            index &+= 8
        }
        while index < lhs.count {
            guard left[index] == right[index] else { return false }
            index &+= 1
        }
        return true
    }

    /// Reads a string value (the opening quote must be next) and hands its unescaped UTF-8 bytes to
    /// `body`; a string without escapes is handed over in place, without building a `String`.
    mutating func readString<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) throws(JSONError) -> R {
        switch try self.readPlainString() {
        case .plain(let range, _):
            return body(UnsafeBufferPointer(rebasing: self.bytes[range]))
        case .escaped(let start, _):
            var (text, end) = try JSONEscaping.unescapedString(self.bytes, from: start)
            self.position = end + 1
            return text.withUTF8(body)
        }
    }

    /// Reads a string value (the opening quote must be next) and writes its unescaped UTF-8 bytes
    /// into storage that `allocate` makes for exactly that many bytes: a string without escapes is
    /// copied straight from the scanned bytes; one with escapes is unescaped into scratch space
    /// first (the eight-byte copies of ``JSONEscaping/unescape(_:from:into:)`` need room up to the
    /// end of the scanned bytes), so that the storage is never larger than what it holds. Returns
    /// the storage, how many bytes were written, and what is known of them.
    mutating func readUnescapedString<Storage>(
        into allocate: (_ capacity: Int) -> (Storage, UnsafeMutablePointer<UInt8>)
    ) throws(JSONError) -> (storage: Storage, count: Int, isValidUTF8: Bool, isASCII: Bool) {
        switch try self.readPlainString() {
        case .plain(let range, let raw):
            let (storage, output) = allocate(range.count)
            if let base = self.bytes.baseAddress {
                output.initialize(from: base + range.lowerBound, count: range.count)
            }
            let isASCII = JSONEscaping.isASCII(raw)
            return (storage, range.count, isASCII, isASCII)
        case .escaped(let start, _):
            let bytes = self.bytes
            let (storage, result) = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count - start) {
                scratch in
                Result { () throws(JSONError) -> (Storage, JSONEscaping.Unescaped) in
                    let result = try JSONEscaping.unescape(bytes, from: start, into: scratch.baseAddress)
                    let (storage, output) = allocate(result.count)
                    if let base = scratch.baseAddress { output.initialize(from: base, count: result.count) }
                    return (storage, result)
                }
            }.get()
            self.position = result.end + 1
            return (storage, result.count, result.isValidUTF8, result.isASCII)
        }
    }

    /// Skips one value of any kind, validating it, and copies its exact text into storage that
    /// `allocate` makes for its length. Returns the storage and that length.
    mutating func readValueText<Storage>(
        into allocate: (_ capacity: Int) -> (Storage, UnsafeMutablePointer<UInt8>)
    ) throws(JSONError) -> (storage: Storage, count: Int) {
        let range = try self.skipValue()
        let (storage, output) = allocate(range.count)
        if let base = self.bytes.baseAddress { output.initialize(from: base + range.lowerBound, count: range.count) }
        return (storage, range.count)
    }

    /// A string value's unescaped UTF-8 bytes (see ``readStringBytes()``).
    enum StringBytes {
        /// A string without escapes: its bytes where they lie in the scanned bytes.
        case inPlace(UnsafeBufferPointer<UInt8>)
        /// A string with escapes, unescaped into a new string.
        case unescaped(String)

        /// Runs `body` over the bytes.
        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            switch self {
            case .inPlace(let bytes):
                return body(bytes)
            case .unescaped(var text):
                return text.withUTF8(body)
            }
        }
    }

    /// Reads a string value (the opening quote must be next) without building a `String` when it
    /// holds no escape: its bytes stay where they lie, valid as long as the scanned bytes are.
    mutating func readStringBytes() throws(JSONError) -> StringBytes {
        switch try self.readPlainString() {
        case .plain(let range, _):
            return .inPlace(UnsafeBufferPointer(rebasing: self.bytes[range]))
        case .escaped(let start, _):
            let (text, end) = try JSONEscaping.unescapedString(self.bytes, from: start)
            self.position = end + 1
            return .unescaped(text)
        }
    }

    /// How a string began.
    private enum StringStart {
        /// A string without escapes, between the quotes at the ends of `range`; its bytes or-ed
        /// together are `raw` (see ``JSONEscaping/isASCII(_:)``).
        case plain(Range<Int>, raw: UInt64)
        /// A string with an escape, whose contents begin at `start` and whose first escape is at
        /// `escape`.
        case escaped(start: Int, escape: Int)
    }

    /// Reads a string value (the opening quote must be next) up to its end, when it holds no escape
    /// (and moves past it), or up to its first escape (and leaves `position` after the opening quote).
    @inline(__always)
    private mutating func readPlainString() throws(JSONError) -> StringStart {
        try self.expect(UInt8(ascii: "\""))
        let start = self.position
        var raw: UInt64 = 0
        let index = JSONEscaping.indexOfSpecialByte(in: self.bytes, from: start, orInto: &raw)
        guard index < self.bytes.count else { throw JSONError("unterminated string") }
        switch self.bytes[index] {
        case UInt8(ascii: "\""):
            self.position = index + 1
            return .plain(start..<index, raw: raw)
        case UInt8(ascii: "\\"):
            return .escaped(start: start, escape: index)
        default:
            throw JSONError("control character in string")
        }
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
        guard case .escaped(_, let escape) = try self.readPlainString() else { return }
        self.position = try JSONEscaping.unescape(self.bytes, from: escape, into: nil).end + 1
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
