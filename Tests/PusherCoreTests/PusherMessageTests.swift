// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Envelope codec")
struct PusherMessageTests {
    @Test("double-encoded data is unescaped once and kept exactly")
    func doubleEncodedData() throws {
        let message = try PusherMessage(
            parsing: #"{"event":"new-price","channel":"prices","data":"{\"price\":1.5,\"s\":\"a\\\"b\"}"}"#)
        #expect(message.event == "new-price")
        #expect(message.channel == "prices")
        #expect(message.data == #"{"price":1.5,"s":"a\"b"}"#)
        #expect(message.userID == nil)
    }

    @Test("object data is kept as its exact JSON text")
    func objectData() throws {
        let message = try PusherMessage(parsing: #"{"event":"e","channel":"c","data": {"b" : [1, 2],"a":null} }"#)
        #expect(message.data == #"{"b" : [1, 2],"a":null}"#)
    }

    @Test("non-JSON string data is preserved verbatim")
    func plainStringData() throws {
        let message = try PusherMessage(parsing: #"{"event":"e","channel":"c","data":"just text, not JSON"}"#)
        #expect(message.data == "just text, not JSON")
    }

    @Test("numeric user_id becomes its text; missing data is nil")
    func numericUserID() throws {
        let message = try PusherMessage(parsing: #"{"event":"client-x","channel":"presence-a","user_id":10}"#)
        #expect(message.userID == "10")
        #expect(message.data == nil)
    }

    @Test("escapes, unicode and surrogate pairs decode")
    func escapes() throws {
        let message = try PusherMessage(parsing: #"{"event":"e\u00e9\n","data":"\ud83d\ude00 \/ \t"}"#)
        #expect(message.event == "eé\n")
        #expect(message.data == "😀 / \t")
    }

    @Test("a lone high surrogate becomes U+FFFD and the escape after it is kept")
    func loneHighSurrogate() throws {
        let message = try PusherMessage(parsing: #"{"event":"e","data":"\uD800\u0041\uD83D\uDE00"}"#)
        #expect(message.data == "\u{FFFD}A😀")
    }

    @Test("escaped keys name the same fields")
    func escapedKeys() throws {
        let message = try PusherMessage(
            parsing: #"{"ev\u0065nt":"e","\u0063hannel":"c","d\u0061ta":"d","user\u005fid":"u","even":1}"#)
        #expect(message == PusherMessage(event: "e", channel: "c", data: "d", userID: "u"))
    }

    /// Keys are matched on their bytes read as one word: a key that differs from a field's name in
    /// any byte, its length included, is some other field (and skipped).
    @Test("keys that nearly name a field are other fields")
    func nearlyFieldNames() throws {
        let message = try PusherMessage(
            parsing:
                #"{"event":"e","Event":"x","events":"x","even":"x","channel":"c","channe":"x","channel_":"x","#
                + #""chAnnel":"x","data":"d","dat":"x","datas":"x","Data":"x","user_id":"u","user_iD":"x","#
                + #""user_ids":"x","user-id":"x"}"#)
        #expect(message == PusherMessage(event: "e", channel: "c", data: "d", userID: "u"))
        #expect(throws: PusherError.self) { try PusherMessage(parsing: #"{"Event":"e","eventx":"e"}"#) }
    }

    @Test(
        "UTF-8 bytes parse exactly as text does",
        arguments: [
            #"{"event":"price","channel":"prices","data":"{\"symbol\":\"ABC\",\"price\":123.45}"}"#,
            #"{"event":"e","channel":"c","data": {"b" : [1, 2],"a":null} }"#,
            #"{"event":"client-x","channel":"presence-a","user_id":10,"data":"\u00e9\ud83d\ude00"}"#,
            #"{"data":null,"channel":null,"event":"pusher:ping"}"#,
        ]
    )
    func utf8Bytes(text: String) throws {
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBytes { raw in
            Result { () throws(PusherError) in try PusherMessage(parsing: raw) }
        }.get()
        #expect(try parsed == PusherMessage(parsing: text))
    }

    @Test("malformed UTF-8 bytes are typed errors; invalid UTF-8 inside a string becomes U+FFFD")
    func malformedBytes() throws {
        for text in ["", "{", #"{"event":"#, #"{"event":"e"} x"#] {
            let bytes = Array(text.utf8)
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(PusherError) in try PusherMessage(parsing: raw) }
            }
            #expect(throws: PusherError.self) { try result.get() }
        }
        #expect(throws: PusherError.self) { try PusherMessage(parsing: UnsafeRawBufferPointer(start: nil, count: 0)) }
        let bytes = Array(#"{"event":"e","data":"a"#.utf8) + [0xFF] + Array(#"\nb"}"#.utf8)
        let message = try bytes.withUnsafeBytes { raw in
            Result { () throws(PusherError) in try PusherMessage(parsing: raw) }
        }.get()
        #expect(message.data == "a\u{FFFD}\nb")
    }

    @Test("a bare pusher:ping without data parses")
    func barePing() throws {
        let message = try PusherMessage(parsing: #"{"event":"pusher:ping"}"#)
        #expect(message.event == "pusher:ping")
        #expect(message.data == nil)
    }

    @Test(
        "malformed frames are typed errors",
        arguments: [
            "", "not json", "[]", #"{"event":1}"#, #"{"channel":"c"}"#, #"{"event":"e""#,
            #"{"event":"e",}"#, #"{"event":"e"} trailing"#, #"{"event":"e","data":tru}"#,
            #"{"event":"e","data":"\x"}"#, "{\"event\":\"a\nb\"}", #"{"event":"e","data":01.}"#,
            #"{"event":"e","channel":5}"#, #"{"event":"e","data":"# + String(repeating: "[", count: 300),
        ]
    )
    func malformed(text: String) {
        #expect(throws: PusherError.self) { try PusherMessage(parsing: text) }
        do {
            _ = try PusherMessage(parsing: text)
        } catch {
            #expect(error.code == .malformedMessage)
        }
    }

    @Test(
        "an invalid escape in object data or a skipped field is a typed error (found by fuzzing)",
        arguments: [
            #"{"event":"e","data":{"a":"\q"}}"#, #"{"event":"e","x":["\\", "\'"]}"#, #"{"event":"e","data":{"\ü":1}}"#,
        ]
    )
    func invalidEscapeInSkippedValue(text: String) {
        #expect(throws: PusherError.self) { try PusherMessage(parsing: text) }
        #expect(throws: PusherError.self) { try JSONValue(parsing: text) }
    }

    @Test("a message round-trips through its server serialisation")
    func roundTrip() throws {
        let original = PusherMessage(event: "ev", channel: "ch", data: "{\"q\":\"\\u0001\"}\n", userID: "u")
        #expect(try PusherMessage(parsing: original.serializedWithStringData) == original)
    }

    @Test("control data parses as JSON; no data is null")
    func parsedData() throws {
        #expect(try PusherMessage(event: "e").parsedData() == .null)
        #expect(
            try PusherMessage(event: "e", data: #"{"socket_id":"1.2"}"#).parsedData() == .object(["socket_id": "1.2"]))
        #expect(throws: PusherError.self) { try PusherMessage(event: "e", data: "not json").parsedData() }
    }

    @Test("the server serialisation sends data as a string, and only the fields there are")
    func serialisation() {
        #expect(PusherMessage(event: "e").serializedWithStringData == #"{"event":"e"}"#)
        #expect(
            PusherMessage(event: "e", channel: "c", data: #"{"a":1}"#, userID: "7").serializedWithStringData
                == #"{"event":"e","channel":"c","data":"{\"a\":1}","user_id":"7"}"#)
    }
}
