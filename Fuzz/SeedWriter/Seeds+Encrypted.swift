// SPDX-License-Identifier: MIT

import Foundation

extension Seeds {
    /// Encrypted events' data: valid payloads for every plaintext, and each way one can be broken.
    static var encrypted: [(String, [UInt8])] {
        var texts = FuzzKey.plaintexts.indices.map { sealed($0, nonceByte: UInt8($0 + 1)) }
        let valid = sealed(0, nonceByte: 9)
        texts += [
            valid.replacingOccurrences(of: "/", with: #"\/"#),
            valid.replacingOccurrences(of: ":", with: " : ").replacingOccurrences(of: ",", with: " ,\n "),
            valid.replacingOccurrences(of: "{", with: #"{"extra":[1,{"nonce":2}],"#),
            valid.replacingOccurrences(of: "\"nonce\"", with: #""n\u006fnce""#),
            valid.replacingOccurrences(of: "=", with: ""),
            valid.replacingOccurrences(of: "\"ciphertext\":\"", with: "\"ciphertext\":\"AAAA"),
            valid.replacingOccurrences(of: "\"nonce\":\"", with: "\"nonce\":\"AAAA"),
            #"{"nonce":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB","ciphertext":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            #"{"nonce":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB","ciphertext":""}"#,
            #"{"nonce":"not base64!","ciphertext":"AAAA"}"#,
            #"{"nonce":1,"ciphertext":"AAAA"}"#,
            #"{"ciphertext":"AAAA"}"#,
            #"{}"#, "[]", "null", "plain text", "",
            FuzzKey.sharedSecret,
        ]
        return named("data", texts)
    }
}
