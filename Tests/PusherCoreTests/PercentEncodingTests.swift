// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Percent-encoding")
struct PercentEncodingTests {
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    @Test("exactly RFC 3986's unreserved bytes are unreserved")
    func unreservedBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(PercentEncoding.isUnreserved(byte) == Self.unreserved.contains(byte), "byte \(byte)")
        }
    }

    @Test(
        "everything else is encoded byte by byte, in upper-case hex",
        arguments: [
            ("", ""),
            ("swift-pusher_channels.1~", "swift-pusher_channels.1~"),
            ("1.0 beta", "1.0%20beta"),
            ("a/b?c=d&e+f", "a%2Fb%3Fc%3Dd%26e%2Bf"),
            ("\u{0}\n", "%00%0A"),
            ("é", "%C3%A9"),
            ("😀", "%F0%9F%98%80"),
        ]
    )
    func encode(text: String, encoded: String) {
        #expect(PercentEncoding.encode(text) == encoded)
    }
}
