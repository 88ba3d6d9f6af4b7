// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Channel events")
struct ChannelEventTests {
    @Test("setting a property changes that copy only")
    func copiesAreValues() {
        let original = ChannelEvent(channel: "prices", name: "tick", data: "1", userID: "u")
        var changed = original
        changed.channel = "other"
        changed.name = "tock"
        changed.data = "2"
        changed.userID = nil
        #expect(original == ChannelEvent(channel: "prices", name: "tick", data: "1", userID: "u"))
        #expect(changed == ChannelEvent(channel: "other", name: "tock", data: "2"))
        #expect(original != changed)
    }

    @Test("an event made from a message equals one made field by field, and hashes alike")
    func equalityAcrossStorage() throws {
        let message = try PusherMessage(parsing: #"{"event":"tick","channel":"prices","data":"1","user_id":"u"}"#)
        let received = ChannelEvent(message, channel: "prices")
        let made = ChannelEvent(channel: "prices", name: "tick", data: "1", userID: "u")
        #expect(received == made)
        #expect(Set([received, made]).count == 1)
        #expect(received != ChannelEvent(channel: "prices", name: "tick", data: "1"))
    }

    @Test("a message without data gives an event with empty data; decrypted data replaces the message's")
    func dataOfReceivedEvents() throws {
        let message = try PusherMessage(parsing: #"{"event":"e","channel":"c"}"#)
        #expect(ChannelEvent(message, channel: "c").data == "")
        #expect(ChannelEvent(message, channel: "c") == ChannelEvent(channel: "c", name: "e", data: ""))
        #expect(ChannelEvent(message, channel: "c", data: "plain").data == "plain")
    }

    @Test("printing an event shows its four properties")
    func description() {
        let event = ChannelEvent(channel: "c", name: "e", data: "{}", userID: nil)
        #expect("\(event)" == #"ChannelEvent(channel: "c", name: "e", data: "{}", userID: nil)"#)
    }
}
