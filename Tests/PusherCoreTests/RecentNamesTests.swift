// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Repeated names")
struct RecentNamesTests {
    /// The address of `text`'s UTF-8 bytes: equal for two strings that share their storage.
    private static func address(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    private static func parse(_ text: String, _ names: inout RecentNames) throws -> PusherMessage {
        var text = text
        return try text.withUTF8 { bytes throws(PusherError) in
            try PusherMessage(parsing: UnsafeRawBufferPointer(bytes), names: &names)
        }
    }

    @Test("a long channel or event name that repeats is the same string, not a new one")
    func longNamesAreShared() throws {
        var names = RecentNames()
        let text = #"{"event":"client-price-update-v2","channel":"private-encrypted-prices","data":"x"}"#
        let first = try Self.parse(text, &names)
        let second = try Self.parse(text, &names)
        #expect(second == first)
        #expect(Self.address(second.channel!) == Self.address(first.channel!))
        #expect(Self.address(second.event) == Self.address(first.event))
    }

    @Test("a different or escaped name is read as it is")
    func otherNamesAreRead() throws {
        var names = RecentNames()
        _ = try Self.parse(#"{"event":"client-price-update-v2","channel":"private-encrypted-prices"}"#, &names)
        let other = try Self.parse(#"{"event":"client-price-update-v3","channel":"private-encrypted-pricez"}"#, &names)
        #expect(other.event == "client-price-update-v3")
        #expect(other.channel == "private-encrypted-pricez")
        let escaped = try Self.parse(
            #"{"event":"client-price-update-v\u0033","channel":"private-encrypted-price\u007a"}"#, &names)
        #expect(escaped == other)
    }
}
