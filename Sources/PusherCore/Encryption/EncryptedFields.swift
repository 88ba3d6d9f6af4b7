// SPDX-License-Identifier: MIT

/// The two fields of an encrypted event's data, `{"nonce": "…", "ciphertext": "…"}`, read with the
/// envelope scanner: no JSON tree is built on the per-event path.
package struct EncryptedFields: Sendable, Hashable {
    package var nonce: String
    package var ciphertext: String

    package init(nonce: String, ciphertext: String) {
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// Reads `data`; throws a reason when it is not a JSON object with string `nonce` and
    /// `ciphertext` fields (other fields are skipped).
    package init(parsing data: String) throws(EncryptedFieldsError) {
        do {
            (self.nonce, self.ciphertext) = try JSONScanner.withBytes(of: data) {
                (bytes) throws(JSONError) -> (String, String) in
                var scanner = JSONScanner(bytes)
                var nonce: String?
                var ciphertext: String?
                guard (try? scanner.peek()) == UInt8(ascii: "{") else {
                    throw JSONError("the data is not a JSON object")
                }
                try scanner.expect(UInt8(ascii: "{"))
                if !(try scanner.consume(UInt8(ascii: "}"))) {
                    repeat {
                        let key = try scanner.readString()
                        try scanner.expect(UInt8(ascii: ":"))
                        let isString = try scanner.peek() == UInt8(ascii: "\"")
                        switch key {
                        case "nonce" where isString: nonce = try scanner.readString()
                        case "ciphertext" where isString: ciphertext = try scanner.readString()
                        default: _ = try scanner.skipValue()
                        }
                    } while try scanner.consume(UInt8(ascii: ","))
                    try scanner.expect(UInt8(ascii: "}"))
                }
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw JSONError("the data is not a JSON object") }
                guard let nonce else { throw JSONError(#"the data has no string "nonce""#) }
                guard let ciphertext else { throw JSONError(#"the data has no string "ciphertext""#) }
                return (nonce, ciphertext)
            }
        } catch {
            throw EncryptedFieldsError(reason: error.reason)
        }
    }
}
