// SPDX-License-Identifier: MIT

/// An `application/x-www-form-urlencoded` body, decoded: `name=value` pairs joined by `&`, `+` for a
/// space, `%XX` for any byte; the decoded bytes must be UTF-8.
package struct FormBody: Sendable, Hashable {
    /// Why a body could not be decoded.
    package struct Malformed: Error, Sendable, Hashable {
        package var reason: String
    }

    /// The fields in the order they were sent (a name may repeat).
    package var fields: [Field]

    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String
    }

    /// Decodes `text`. An empty body has no fields; empty pieces (`a=1&&b=2`) are skipped; a piece
    /// without `=` is a field with an empty value.
    package init(parsing text: String) throws(Malformed) {
        var fields: [Field] = []
        for piece in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            let name = try Self.decode(piece[..<(equals ?? piece.endIndex)])
            var value = ""
            if let equals { value = try Self.decode(piece[piece.index(after: equals)...]) }
            fields.append(Field(name: name, value: value))
        }
        self.fields = fields
    }

    /// The values sent for `name`, in order.
    package func values(named name: String) -> [String] {
        self.fields.filter { $0.name == name }.map(\.value)
    }

    /// Percent-decodes one name or value.
    package static func decode(_ encoded: Substring.UTF8View) throws(Malformed) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let first = encoded.index(after: index)
                guard first < encoded.endIndex, encoded.index(after: first) < encoded.endIndex,
                    let high = Self.hexValue(encoded[first]),
                    let low = Self.hexValue(encoded[encoded.index(after: first)])
                else {
                    throw Malformed(reason: "a '%' is not followed by two hexadecimal digits")
                }
                bytes.append(high << 4 | low)
                index = encoded.index(after: first)
            default:
                bytes.append(byte)
            }
            index = encoded.index(after: index)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs invalid UTF-8 with replacement characters: refuse it instead.
        guard text.utf8.elementsEqual(bytes) else { throw Malformed(reason: "a decoded field is not UTF-8") }
        return text
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
