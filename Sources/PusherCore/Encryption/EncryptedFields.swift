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
        (self.nonce, self.ciphertext) = try Self.withFieldBytes(of: data) { nonce, ciphertext in
            (String(decoding: nonce, as: UTF8.self), String(decoding: ciphertext, as: UTF8.self))
        }
    }

    /// The generic `withFieldBytes` for the per-event path of encrypted channels, which opens the
    /// payload: not generic, so that the reading is specialised in this module (a generic called
    /// from another one looks up its types at run time, for every event).
    package static func withFieldBytes(
        of data: UnsafeBufferPointer<UInt8>,
        _ body: (_ nonce: UnsafeBufferPointer<UInt8>, _ ciphertext: UnsafeBufferPointer<UInt8>) ->
            DecryptionStateMachine.Opened
    ) throws(EncryptedFieldsError) -> DecryptionStateMachine.Opened {
        do {
            return try Self.readFields(of: data, body)
        } catch {
            throw EncryptedFieldsError(reason: error.reason)
        }
    }

    /// Reads `data` as ``init(parsing:)`` does and hands the UTF-8 bytes of the two fields to
    /// `body`, without building strings of them when they hold no escape (the per-event path of
    /// encrypted channels: the bytes go straight to the base64 decoder). When a field appears more
    /// than once, the last one counts.
    package static func withFieldBytes<R>(
        of data: String, _ body: (_ nonce: UnsafeBufferPointer<UInt8>, _ ciphertext: UnsafeBufferPointer<UInt8>) -> R
    ) throws(EncryptedFieldsError) -> R {
        try Self.readFields(of: data, body)
    }

    private static func readFields<R>(
        of data: String, _ body: (_ nonce: UnsafeBufferPointer<UInt8>, _ ciphertext: UnsafeBufferPointer<UInt8>) -> R
    ) throws(EncryptedFieldsError) -> R {
        do {
            return try JSONScanner.withBytes(of: data) { (bytes) throws(JSONError) -> R in
                try Self.readFields(of: bytes, body)
            }
        } catch {
            throw EncryptedFieldsError(reason: error.reason)
        }
    }

    /// ``readFields(of:_:)-(String,_)`` over the data's UTF-8 bytes.
    @inline(__always)
    private static func readFields<R>(
        of bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ nonce: UnsafeBufferPointer<UInt8>, _ ciphertext: UnsafeBufferPointer<UInt8>) -> R
    ) throws(JSONError) -> R {
        var scanner = JSONScanner(bytes)
        var nonce: JSONScanner.StringBytes?
        var ciphertext: JSONScanner.StringBytes?
        guard (try? scanner.peek()) == UInt8(ascii: "{") else {
            throw JSONError("the data is not a JSON object")
        }
        try scanner.expect(UInt8(ascii: "{"))
        if !(try scanner.consume(UInt8(ascii: "}"))) {
            repeat {
                let key = try scanner.readString(Key.init)
                try scanner.expect(UInt8(ascii: ":"))
                let isString = try scanner.peek() == UInt8(ascii: "\"")
                switch key {
                case .nonce where isString: nonce = try scanner.readStringBytes()
                case .ciphertext where isString: ciphertext = try scanner.readStringBytes()
                default: _ = try scanner.skipValue()
                }
            } while try scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw JSONError("the data is not a JSON object") }
        guard let nonce else { throw JSONError(#"the data has no string "nonce""#) }
        guard let ciphertext else { throw JSONError(#"the data has no string "ciphertext""#) }
        // The bytes in place are valid until `withBytes` returns.
        return nonce.withBytes { nonce in ciphertext.withBytes { ciphertext in body(nonce, ciphertext) } }
    }

    /// A key of the data, matched on its unescaped bytes (no `String` is built for it).
    private enum Key {
        case nonce, ciphertext, other

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            if Self.matches(bytes, "nonce") {
                self = .nonce
            } else if Self.matches(bytes, "ciphertext") {
                self = .ciphertext
            } else {
                self = .other
            }
        }

        private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            for index in 0..<bytes.count where bytes[index] != name.utf8Start[index] { return false }
            return true
        }
    }
}
