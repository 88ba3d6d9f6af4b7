// SPDX-License-Identifier: MIT

/// A slow, obviously correct reading of a JSON string's content, to compare the scanner with.
///
/// Raw bytes are UTF-8 repaired with U+FFFD; `\uXXXX` escapes are UTF-16: a high surrogate directly
/// followed by a low one is one scalar, any other surrogate is U+FFFD (and what follows is read on
/// its own).
enum ReferenceUnescaper {
    /// The string `body` (the bytes between the quotes) stands for, or nil when it is not a valid
    /// JSON string body (a bare quote or control character, a bad or short escape).
    static func unescape(_ body: [UInt8]) -> String? {
        var result = ""
        var raw: [UInt8] = []
        var index = 0
        func flushRaw() {
            result += String(decoding: raw, as: UTF8.self)
            raw.removeAll()
        }
        while index < body.count {
            let byte = body[index]
            if byte == UInt8(ascii: "\"") || byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                raw.append(byte)
                index += 1
                continue
            }
            guard index + 1 < body.count else { return nil }
            let escaped = body[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "\""): raw.append(escaped)
            case UInt8(ascii: "\\"): raw.append(escaped)
            case UInt8(ascii: "/"): raw.append(escaped)
            case UInt8(ascii: "b"): raw.append(0x08)
            case UInt8(ascii: "f"): raw.append(0x0C)
            case UInt8(ascii: "n"): raw.append(0x0A)
            case UInt8(ascii: "r"): raw.append(0x0D)
            case UInt8(ascii: "t"): raw.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(body, at: index) else { return nil }
                index += 4
                flushRaw()
                if (0xD800...0xDBFF).contains(unit), index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
                    body[index + 1] == UInt8(ascii: "u"), let low = hex4(body, at: index + 2),
                    (0xDC00...0xDFFF).contains(low)
                {
                    index += 6
                    result.unicodeScalars.append(Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00))!)
                } else {
                    result.unicodeScalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            default:
                return nil
            }
        }
        flushRaw()
        return result
    }

    private static func hex4(_ body: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= body.count else { return nil }
        var value: UInt32 = 0
        for byte in body[index..<index + 4] {
            guard let digit = UInt8(exactly: byte).flatMap({ Int(String(Unicode.Scalar($0)), radix: 16) }) else {
                return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
