// SPDX-License-Identifier: MIT

import PusherChannelsServer
import PusherCrypto
import Testing

/// The primitives the server side signs with, against the worked example of the HTTP API reference
/// (`docs_crosscheck` in ../shared/vectors/pusher-http-api.json).
@Suite struct SharedCryptoTests {
    let body = #"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#

    @Test func bodyMD5OfTheWorkedExample() {
        #expect(MD5Digest.hex(Array(self.body.utf8)) == "ec365a775a4cd0599faeb73354201b6f")
        #expect(MD5Digest.hex([UInt8]()) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func signatureOfTheWorkedExample() {
        let stringToSign = """
            POST
            /apps/3/events
            auth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f
            """
        #expect(
            HMACSHA256.hex(key: "7ad3773142a6692b25b8", message: stringToSign)
                == "da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c")
    }

    @Test func constantTimeComparison() {
        #expect(Hex.constantTimeEquals("abc", "abc"))
        #expect(!Hex.constantTimeEquals("abc", "abd"))
        #expect(!Hex.constantTimeEquals("abc", "abcd"))
        #expect(!Hex.constantTimeEquals("", "a"))
    }
}
