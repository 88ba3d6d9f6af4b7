// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Channel names")
struct ChannelNameTests {
    @Test(
        "prefixes map to kinds; a cache- part changes nothing",
        arguments: [
            ("prices", ChannelName.Kind.public),
            ("cache-prices", .public),
            ("privatechat", .public),
            ("presence", .public),
            ("private-chat", .private),
            ("private-cache-chat", .private),
            ("private-encrypted", .private),
            ("presence-room", .presence),
            ("presence-cache-room", .presence),
            ("private-encrypted-vault", .privateEncrypted),
            ("private-encrypted-cache-vault", .privateEncrypted),
        ]
    )
    func kinds(name: String, kind: ChannelName.Kind) throws {
        let channel = try ChannelName(validating: name)
        #expect(channel.rawValue == name)
        #expect(channel.description == name)
        #expect(channel.kind == kind)
        #expect(channel.requiresAuthorization == (kind != .public))
    }

    @Test(
        "invalid names are refused with a typed error",
        arguments: ["", "#server-to-user-1", "has space", "slash/no", "ünïcode", String(repeating: "a", count: 165)]
    )
    func invalid(name: String) {
        #expect {
            try ChannelName(validating: name)
        } throws: { error in
            (error as? PusherError)?.code == .invalidChannelName
        }
    }

    @Test("every allowed punctuation mark is accepted, up to 164 characters")
    func allowed() throws {
        _ = try ChannelName(validating: "a_b-c=d@e,f.g;h")
        _ = try ChannelName(validating: String(repeating: "a", count: 164))
    }

    @Test("a name wrapped unchecked (a received message's) finds what was stored under the validated name")
    func uncheckedLookup() throws {
        let validated = try ChannelName(validating: "private-encrypted-vault")
        let received = ChannelName(unchecked: "private-encrypted-vault")
        #expect(received == validated)
        #expect([validated: 1][received] == 1)
        #expect(received.kind == .privateEncrypted)
        #expect(ChannelName(unchecked: "#server-to-user-1").kind == .public)
    }

    @Test("a channel name is no bigger than its string: wrapping one costs nothing on the per-event path")
    func cheapWrapper() {
        #expect(MemoryLayout<ChannelName>.size == MemoryLayout<String>.size)
    }
}
