// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Encrypted fields")
struct EncryptedFieldsTests {
    @Test("nonce and ciphertext are read, other fields skipped, escapes undone")
    func reads() throws {
        let fields = try EncryptedFields(
            parsing: #"{"extra":[1,{"a":2}],"ciphertext":"Y2lwaGVy\/","nonce":"bm9uY2U="}"#)
        #expect(fields == EncryptedFields(nonce: "bm9uY2U=", ciphertext: "Y2lwaGVy/"))
    }

    @Test(
        "data that is not an object with both strings is refused with a reason",
        arguments: [
            ("", "the data is not a JSON object"),
            ("[1]", "the data is not a JSON object"),
            (#"{"nonce":"a"}"#, #"the data has no string "ciphertext""#),
            (#"{"nonce":1,"ciphertext":"b"}"#, #"the data has no string "nonce""#),
            (#"{"nonce":"a","ciphertext":"b"} x"#, "the data is not a JSON object"),
        ]
    )
    func refuses(data: String, reason: String) {
        #expect(throws: EncryptedFieldsError(reason: reason)) { try EncryptedFields(parsing: data) }
    }
}
