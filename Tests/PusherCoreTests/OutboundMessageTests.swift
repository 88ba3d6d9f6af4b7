// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Outbound messages")
struct OutboundMessageTests {
    @Test("outbound control messages carry data as an object")
    func controlMessages() throws {
        let subscribe = try JSONValue(
            parsing: OutboundMessage.subscribe(channel: "a\"b", auth: "k:s", channelData: #"{"user_id":"1"}"#))
        #expect(subscribe["event"] == .string("pusher:subscribe"))
        #expect(subscribe["data"]?["channel"] == .string("a\"b"))
        #expect(subscribe["data"]?["auth"] == .string("k:s"))
        #expect(subscribe["data"]?["channel_data"] == .string(#"{"user_id":"1"}"#))
        let unsubscribe = try JSONValue(parsing: OutboundMessage.unsubscribe(channel: "x"))
        #expect(
            unsubscribe
                == .object(["event": .string("pusher:unsubscribe"), "data": .object(["channel": .string("x")])]))
        #expect(try JSONValue(parsing: OutboundMessage.ping)["data"] == .object([:]))
        #expect(try JSONValue(parsing: OutboundMessage.pong)["event"] == .string("pusher:pong"))
    }

    @Test(
        "the exact text sent for each message",
        arguments: [
            (OutboundMessage.ping, #"{"event":"pusher:ping","data":{}}"#),
            (OutboundMessage.pong, #"{"event":"pusher:pong","data":{}}"#),
            (
                OutboundMessage.subscribe(channel: "prices"),
                #"{"event":"pusher:subscribe","data":{"channel":"prices"}}"#
            ),
            (
                OutboundMessage.subscribe(channel: "private-a", auth: "key:sig"),
                #"{"event":"pusher:subscribe","data":{"channel":"private-a","auth":"key:sig"}}"#
            ),
            (
                OutboundMessage.subscribe(channel: "presence-a", auth: "key:sig", channelData: #"{"user_id":"1"}"#),
                #"{"event":"pusher:subscribe","data":{"channel":"presence-a","auth":"key:sig","channel_data":"{\"user_id\":\"1\"}"}}"#
            ),
            (
                OutboundMessage.unsubscribe(channel: "prices"),
                #"{"event":"pusher:unsubscribe","data":{"channel":"prices"}}"#
            ),
            (
                OutboundMessage.signIn(auth: "key:sig", userData: #"{"id":"ann"}"#),
                #"{"event":"pusher:signin","data":{"auth":"key:sig","user_data":"{\"id\":\"ann\"}"}}"#
            ),
        ]
    )
    func exactText(text: String, expected: String) {
        #expect(text == expected)
    }

    @Test("the signed user_data string reaches the server unchanged")
    func signInKeepsUserData() throws {
        let userData = "{\"id\":\"ann\", \"user_info\":{\"note\":\"a\\\"b\\n\"}}"
        let message = try JSONValue(parsing: OutboundMessage.signIn(auth: "k:s", userData: userData))
        #expect(message["data"]?["user_data"] == .string(userData))
        #expect(message["data"]?["auth"] == .string("k:s"))
    }
}
