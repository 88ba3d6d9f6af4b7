// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Channel names")
struct ChannelNameTests {
    @Test(
        "prefixes map to kinds",
        arguments: [
            ("prices", ChannelName.Kind.public, false),
            ("cache-prices", .public, true),
            ("private-chat", .private, false),
            ("private-cache-chat", .private, true),
            ("presence-room", .presence, false),
            ("presence-cache-room", .presence, true),
            ("private-encrypted-vault", .privateEncrypted, false),
            ("private-encrypted-cache-vault", .privateEncrypted, true),
        ]
    )
    func kinds(name: String, kind: ChannelName.Kind, isCache: Bool) throws {
        let channel = try ChannelName(validating: name)
        #expect(channel.kind == kind)
        #expect(channel.isCache == isCache)
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
        #expect(ChannelName.serverToUser(userID: "42").kind == .serverToUser)
    }
}
