// SPDX-License-Identifier: MIT

import PusherCore

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

    /// Percent-decodes one name or value (`+` is a space).
    package static func decode(_ encoded: Substring.UTF8View) throws(Malformed) -> String {
        guard let bytes = PercentEncoding.decodedBytes(Substring(encoded), plusAsSpace: true) else {
            throw Malformed(reason: "a '%' is not followed by two hexadecimal digits")
        }
        // Decoding would repair invalid UTF-8 with replacement characters: refuse it instead.
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Malformed(reason: "a decoded field is not UTF-8")
        }
        return text
    }
}
