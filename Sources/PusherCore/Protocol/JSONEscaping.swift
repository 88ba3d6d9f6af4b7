// SPDX-License-Identifier: MIT

/// Byte-level work on the contents of JSON strings, for ``JSONScanner``: finding the bytes that end
/// a run of plain content (eight bytes at a time), and undoing escapes in one pass into the final
/// string's storage.
enum JSONEscaping {
    /// The string that `source` (the validated bytes between a string's quotes) stands for, built in
    /// one copy: unescaping never makes a string longer, so a buffer of `source.count` bytes holds
    /// it. Invalid UTF-8 is repaired with U+FFFD, like `String(decoding:as:)` does.
    static func unescapedString(_ source: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: source.count) { unescape(source, into: $0) }
    }

    /// The index of the first `"`, `\` or control character (below 0x20) at or after `index`, or
    /// `bytes.count` when there is none. Eight bytes at a time.
    @inline(__always)
    static func indexOfSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let found = specialBytes(in: word)
                if found != 0 { return index + found.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return index
    }

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

    /// Unescapes `source`, the bytes between the quotes of a string that ``JSONScanner`` validated
    /// (every escape is complete and valid), into `output` (at least as long as `source`); returns
    /// how many bytes it wrote.
    ///
    /// `\uXXXX` escapes become UTF-8. A high surrogate followed by a low one (`\uD83D\uDE00`) makes one
    /// scalar; any other surrogate becomes U+FFFD, and what follows it is read on its own.
    static func unescape(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var read = 0
        var written = 0
        while read < source.count {
            // Copy the run up to the next escape (the only special byte validated content can hold).
            let runEnd = indexOfSpecialByte(in: source, from: read)
            if runEnd > read {
                // Short runs (between escapes) are copied byte by byte: cheaper than calling memcpy.
                if runEnd - read < 16 {
                    for index in read..<runEnd {
                        output[written] = source[index]
                        written += 1
                    }
                } else {
                    let run = UnsafeBufferPointer(rebasing: source[read..<runEnd])
                    _ = UnsafeMutableBufferPointer(rebasing: output[written...]).initialize(fromContentsOf: run)
                    written += run.count
                }
                read = runEnd
            }
            guard read < source.count else { break }
            let escaped = source[read + 1]
            read += 2
            let byte: UInt8
            switch escaped {
            case UInt8(ascii: "b"): byte = 0x08
            case UInt8(ascii: "f"): byte = 0x0C
            case UInt8(ascii: "n"): byte = 0x0A
            case UInt8(ascii: "r"): byte = 0x0D
            case UInt8(ascii: "t"): byte = 0x09
            case UInt8(ascii: "u"):
                var scalar = hexValue(source, at: read)
                read += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    if read + 6 <= source.count, source[read] == UInt8(ascii: "\\"),
                        source[read + 1] == UInt8(ascii: "u"),
                        case let low = hexValue(source, at: read + 2), (0xDC00...0xDFFF).contains(low)
                    {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        read += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                written += writeUTF8(scalar, into: output, at: written)
                continue
            default:
                // `"`, `\` and `/` stand for themselves.
                byte = escaped
            }
            output[written] = byte
            written += 1
        }
        return written
    }

    /// The value of the four hex digits at `index` (already validated).
    private static func hexValue(_ source: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in source[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            default: digit = byte &- UInt8(ascii: "A") &+ 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes `scalar` (a valid scalar value: not a surrogate, at most U+10FFFF) as UTF-8 at `index`;
    /// returns how many bytes it wrote.
    private static func writeUTF8(_ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int)
        -> Int
    {
        switch scalar {
        case ..<0x80:
            output[index] = UInt8(truncatingIfNeeded: scalar)
            return 1
        case ..<0x800:
            output[index] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            output[index + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            output[index] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            output[index + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[index + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        default:
            output[index] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            output[index + 1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            output[index + 2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[index + 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 4
        }
    }
}
