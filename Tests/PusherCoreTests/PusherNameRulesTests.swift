// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// The one set of name rules the client, the server side and the fake server share, at its
/// boundaries.
@Suite struct PusherNameRulesTests {
    static let longestSocketID = String(repeating: "1", count: 32) + "." + String(repeating: "2", count: 31)

    @Test("channel names: 164 bytes pass, 165 do not, on the client and in the shared rule")
    func channelNameLength() throws {
        let longest = "private-" + String(repeating: "x", count: 156)
        #expect(longest.utf8.count == 164)
        #expect(PusherNameRules.isValidChannelName(longest))
        #expect(try ChannelName(validating: longest).rawValue == longest)
        #expect(PusherNameRules.channelNameProblem(longest + "x") == .tooLong(bytes: 165, maximum: 164))
        #expect(throws: PusherError.self) { try ChannelName(validating: longest + "x") }
    }

    @Test("channel names are counted in bytes: multi-byte characters are refused whatever their count")
    func channelNameMultiByte() {
        // 82 characters, 164 bytes; and 83 characters, 166 bytes: refused for their characters.
        for name in [String(repeating: "é", count: 82), "a" + String(repeating: "é", count: 82)] {
            #expect(!PusherNameRules.isValidChannelName(name))
            #expect(PusherNameRules.channelNameProblem(name, maximumBytes: nil) == .invalidCharacter(0xC3))
        }
    }

    @Test("server-to-user names: only where allowed, with a user id, within 164 bytes")
    func serverToUser() {
        let longest = "#server-to-user-" + String(repeating: "u", count: 148)
        #expect(PusherNameRules.isValidChannelName(longest, allowsServerToUser: true))
        #expect(!PusherNameRules.isValidChannelName(longest + "u", allowsServerToUser: true))
        #expect(PusherNameRules.channelNameProblem(longest) == .reserved)
        #expect(PusherNameRules.channelNameProblem("#server-to-user-", allowsServerToUser: true) == .reserved)
        #expect(PusherNameRules.channelNameProblem("#other", allowsServerToUser: true) == .reserved)
        #expect(
            PusherNameRules.channelNameProblem("#server-to-user-a b", allowsServerToUser: true)
                == .invalidCharacter(UInt8(ascii: " ")))
    }

    @Test("a nil maximum leaves the length unchecked, not the characters")
    func noMaximum() {
        #expect(PusherNameRules.channelNameProblem(String(repeating: "c", count: 1000), maximumBytes: nil) == nil)
        #expect(PusherNameRules.channelNameProblem("", maximumBytes: nil) == .empty)
    }

    @Test("event names: 200 bytes pass, 201 do not, counted in bytes")
    func eventNames() {
        #expect(PusherNameRules.isValidEventName(String(repeating: "e", count: 200)))
        #expect(!PusherNameRules.isValidEventName(String(repeating: "e", count: 201)))
        // 100 characters of two bytes pass; one more byte does not, though it is only 101 characters.
        #expect(PusherNameRules.isValidEventName(String(repeating: "é", count: 100)))
        #expect(!PusherNameRules.isValidEventName(String(repeating: "é", count: 100) + "e"))
        #expect(!PusherNameRules.isValidEventName(""))
        #expect(PusherNameRules.isValidEventName(String(repeating: "e", count: 201), maximumBytes: nil))
    }

    @Test("socket ids of up to 64 bytes", arguments: ["1.2", "0.0", Self.longestSocketID])
    func validSocketIDs(socketID: String) {
        #expect(PusherNameRules.isValidSocketID(socketID))
        #expect(ClientEngine.isValidSocketID(socketID))
    }

    @Test(
        "socket ids refused",
        arguments: ["1.", ".1", "a.1", "1.a", "1.2.3", "12", "", "1 .2", "١.٢", Self.longestSocketID + "3"]
    )
    func invalidSocketIDs(socketID: String) {
        #expect(!PusherNameRules.isValidSocketID(socketID))
        #expect(!ClientEngine.isValidSocketID(socketID))
    }

    @Test("client event names: 200 bytes go, 201 are refused with a typed error")
    func clientEventNames() throws {
        var script = EngineScript()
        script.connect()
        _ = try script.add(.channel("private-chat", eventName: nil, authorization: nil))
        let longest = "client-" + String(repeating: "é", count: 96) + "x"
        #expect(longest.utf8.count == 200)
        _ = try script.engine.trigger(longest, on: "private-chat", data: "{}", at: script.now)
        #expect {
            try script.engine.trigger(longest + "x", on: "private-chat", data: "{}", at: script.now)
        } throws: { error in
            (error as? PusherError)?.code == .clientEventRejected
        }
    }
}
