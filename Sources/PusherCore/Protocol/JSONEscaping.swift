// SPDX-License-Identifier: MIT

/// Byte-level work on the contents of JSON strings, for ``JSONScanner``: finding the bytes that end
/// a run of plain content (eight bytes at a time), and reading an escaped string in one pass that
/// finds its end, validates every escape and writes the unescaped bytes.
enum JSONEscaping {
    /// What ``unescape(_:from:into:)`` found.
    struct Unescaped {
        /// The index of the closing quote.
        let end: Int
        /// How many bytes the unescaped string has.
        let count: Int
        /// Whether the unescaped bytes are known to be valid UTF-8: the raw bytes were all ASCII (escapes
        /// always make valid UTF-8). When false they may still be; they must be checked.
        let isValidUTF8: Bool
        /// Whether the unescaped bytes are all ASCII.
        let isASCII: Bool
    }

    /// The high bit of every byte of a word.
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Reads the string whose contents begin at `start` (just after its opening quote) in one pass:
    /// finds its closing quote, validates every escape, refuses control characters, and makes the
    /// string from the unescaped bytes, checking them for valid UTF-8 only when some raw byte is not
    /// ASCII (invalid UTF-8 is repaired with U+FFFD, like `String(decoding:as:)` does). Returns the
    /// string and the index of its closing quote.
    static func unescapedString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONError) -> (
        text: String, end: Int
    ) {
        // Unescaping never makes a string longer, so the rest of the input bounds it; the eight-byte
        // copies in `unescape` never write past that bound either (see there).
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count - start) { output in
            Result { () throws(JSONError) -> (text: String, end: Int) in
                let result = try unescape(bytes, from: start, into: output.baseAddress)
                let text = Self.string(
                    UnsafeBufferPointer(rebasing: output[0..<result.count]), isValidUTF8: result.isValidUTF8,
                    isASCII: result.isASCII)
                return (text, result.end)
            }
        }.get()
    }

    /// A string of `bytes`; when `isValidUTF8`, they are known to be valid UTF-8 and are not checked
    /// again (`isASCII` says whether they are all ASCII); else invalid UTF-8 is repaired with U+FFFD.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool, isASCII: Bool) -> String {
        if isValidUTF8, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a string's contents from `start` up to its closing quote, validating every escape and
    /// refusing control characters; when `output` is given (at least `bytes.count - start` bytes),
    /// writes the unescaped bytes there. One pass, eight bytes at a time between escapes.
    ///
    /// `\uXXXX` escapes become UTF-8. A high surrogate followed by a low one (`\uD83D\uDE00`) makes one
    /// scalar; any other surrogate becomes U+FFFD, and what follows it is read on its own.
    @inline(__always)
    static func unescape(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into output: UnsafeMutablePointer<UInt8>?
    )
        throws(JSONError) -> Unescaped
    {
        guard let base = bytes.baseAddress else { throw JSONError("unterminated string") }
        let count = bytes.count
        var read = start
        // Never more than `read - start`: each escape is longer than what it stands for. So an
        // eight-byte store at `written`, made only while `read + 8 <= count`, stays in `output`.
        var written = 0
        var raw: UInt64 = 0  // every raw byte copied, or-ed together
        var escapedNonASCII = false
        while true {
            // Copy the run of plain bytes up to the next special byte.
            run: while true {
                guard read &+ 8 <= count else {
                    while read < count {
                        let byte = base[read]
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break run }
                        output?[written] = byte
                        raw |= UInt64(byte)
                        read &+= 1
                        written &+= 1
                    }
                    throw JSONError("unterminated string")
                }
                let loaded = UnsafeRawPointer(base + read).loadUnaligned(as: UInt64.self)
                output.map { UnsafeMutableRawPointer($0 + written).storeBytes(of: loaded, as: UInt64.self) }
                let word = UInt64(littleEndian: loaded)
                let found = specialBytes(in: word)
                if found != 0 {
                    let length = found.trailingZeroBitCount &>> 3
                    raw |= word & ((1 &<< (UInt64(length) &<< 3)) &- 1)
                    read &+= length
                    written &+= length
                    break run
                }
                raw |= word
                read &+= 8
                written &+= 8
            }
            let byte = base[read]
            if byte == UInt8(ascii: "\"") {
                let isValidUTF8 = raw & highBits == 0
                return Unescaped(
                    end: read, count: written, isValidUTF8: isValidUTF8, isASCII: isValidUTF8 && !escapedNonASCII)
            }
            guard byte == UInt8(ascii: "\\") else { throw JSONError("control character in string") }
            guard read &+ 1 < count else { throw JSONError("unterminated escape") }
            let escaped = base[read &+ 1]
            read &+= 2
            let decoded: UInt8
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = escaped
            case UInt8(ascii: "b"): decoded = 0x08
            case UInt8(ascii: "f"): decoded = 0x0C
            case UInt8(ascii: "n"): decoded = 0x0A
            case UInt8(ascii: "r"): decoded = 0x0D
            case UInt8(ascii: "t"): decoded = 0x09
            case UInt8(ascii: "u"):
                guard read &+ 4 <= count else { throw JSONError("short unicode escape") }
                guard var scalar = hexValue(base, at: read) else { throw JSONError("invalid unicode escape") }
                read &+= 4
                if (0xD800...0xDBFF).contains(scalar) {
                    if read &+ 6 <= count, base[read] == UInt8(ascii: "\\"), base[read &+ 1] == UInt8(ascii: "u"),
                        let low = hexValue(base, at: read &+ 2), (0xDC00...0xDFFF).contains(low)
                    {
                        scalar = 0x10000 &+ ((scalar &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                        read &+= 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                escapedNonASCII = escapedNonASCII || scalar >= 0x80
                if let output { written &+= writeUTF8(scalar, into: output + written) }
                continue
            default:
                throw JSONError("invalid escape")
            }
            output?[written] = decoded
            written &+= 1
        }
    }

    /// The index of the first `"`, `\` or control character (below 0x20) at or after `index`, or
    /// `bytes.count` when there is none. Eight bytes at a time.
    @inline(__always)
    static func indexOfSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var raw: UInt64 = 0
        return indexOfSpecialByte(in: bytes, from: index, orInto: &raw)
    }

    /// ``indexOfSpecialByte(in:from:)``, also or-ing every byte it passes over into `raw` (so that
    /// `raw & 0x80 == 0` when they are all ASCII; bits of the other bytes of a word may be set).
    @inline(__always)
    static func indexOfSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from index: Int, orInto raw: inout UInt64)
        -> Int
    {
        var index = index
        if let base = bytes.baseAddress {
            while index &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let found = specialBytes(in: word)
                if found != 0 {
                    let length = found.trailingZeroBitCount &>> 3
                    raw |= word & ((1 &<< (UInt64(length) &<< 3)) &- 1)
                    return index &+ length
                }
                raw |= word
                index &+= 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            raw |= UInt64(byte)
            index &+= 1
        }
        return index
    }

    /// Whether bytes or-ed together by ``indexOfSpecialByte(in:from:orInto:)`` were all ASCII.
    @inline(__always)
    static func isASCII(_ raw: UInt64) -> Bool { raw & highBits == 0 }

    /// A mask whose lowest set bit is the high bit of the first (lowest-addressed, in a word loaded
    /// little-endian) byte of `word` that is `"`, `\` or below 0x20; zero when there is none. Bits
    /// above the lowest may be set by borrows and mean nothing.
    @inline(__always)
    static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte of `x` below `n` (n ≤ 0x80) sets its high bit in `(x - n·ones) & ~x`, and bytes
        // below the lowest such byte set nothing; a byte equal to `c` is a byte of `x ^ c·ones` below 1.
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (quote | backslash | control) & (ones &* 0x80)
    }

    /// The value of the four hex digits at `index`, or nil when one is not a hex digit.
    @inline(__always)
    private static func hexValue(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt32? {
        guard let a = hexDigit(base[index]), let b = hexDigit(base[index &+ 1]), let c = hexDigit(base[index &+ 2]),
            let d = hexDigit(base[index &+ 3])
        else { return nil }
        return a &<< 12 | b &<< 8 | c &<< 4 | d
    }

    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return UInt32(digit) }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")  // 'A'...'F' become 'a'...'f'
        return letter < 6 ? UInt32(letter) &+ 10 : nil
    }

    /// Writes `scalar` (a valid scalar value: not a surrogate, at most U+10FFFF) as UTF-8 at `output`;
    /// returns how many bytes it wrote.
    @inline(__always)
    private static func writeUTF8(_ scalar: UInt32, into output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            output[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        case ..<0x800:
            output[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            output[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 4
        }
    }
}
