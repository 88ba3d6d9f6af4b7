// SPDX-License-Identifier: MIT

/// Percent-encoding of everything but RFC 3986's unreserved characters, for URL query values and
/// `application/x-www-form-urlencoded` bodies.
package enum PercentEncoding {
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    package static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }

    /// The bytes of `text` with every `%HH` decoded, and `+` read as a space when `plusAsSpace`
    /// (form bodies and query strings); nil when a `%` is not followed by two hexadecimal digits.
    package static func decodedBytes(_ text: some StringProtocol, plusAsSpace: Bool = false) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if plusAsSpace, byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
                continue
            }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// `text` with every `%HH` decoded (as UTF-8, invalid sequences replaced); nil when a `%` is
    /// not followed by two hexadecimal digits.
    package static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        self.decodedBytes(text, plusAsSpace: plusAsSpace).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `text` with every `%HH` decoded; nil when an escape is malformed or the result is not UTF-8.
    package static func decodeUTF8(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        self.decodedBytes(text, plusAsSpace: plusAsSpace).flatMap { String(validating: $0, as: UTF8.self) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
