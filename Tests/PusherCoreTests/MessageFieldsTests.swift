// SPDX-License-Identifier: MIT

import Testing

@testable import PusherCore

@Suite("Message fields: the data's bytes kept inside the message")
struct MessageFieldsTests {
    /// Messages whose data sits first, in the middle and last, plain and escaped, ASCII and not.
    static let cases: [(json: String, data: String?)] = [
        (#"{"data":"{\"a\":1}","event":"e","channel":"c"}"#, #"{"a":1}"#),
        (#"{"event":"e","data":"{\"a\":1}","channel":"c"}"#, #"{"a":1}"#),
        (#"{"event":"e","channel":"c","data":"{\"a\":1}"}"#, #"{"a":1}"#),
        (#"{"event":"e","channel":"c","data":"plain text"}"#, "plain text"),
        (#"{"event":"e","channel":"c","data":"caf\u00e9 \ud83d\ude00"}"#, "café 😀"),
        (#"{"event":"e","channel":"c","data":"déjà vu"}"#, "déjà vu"),
        (#"{"event":"e","channel":"c","data":{"a": [1, 2]}}"#, #"{"a": [1, 2]}"#),
        (#"{"event":"e","channel":"c","data":""}"#, ""),
        (#"{"event":"e","channel":"c","data":null}"#, nil),
        (#"{"event":"e","channel":"c"}"#, nil),
        (#"{"event":"e","data":"first","data":"second \"quoted\""}"#, #"second "quoted""#),
        (#"{"event":"e","data":"first","data":null}"#, nil),
    ]

    @Test("parsed data reads back the same as text and as bytes, wherever it sits", arguments: 0..<12)
    func dataReadsBack(index: Int) throws {
        let (json, expected) = Self.cases[index]
        let message = try PusherMessage(parsing: json)
        #expect(message.data == expected)
        let bytes = message.withDataBytes { Array($0) }
        #expect(bytes == expected.map { Array($0.utf8) })
        #expect(message.fields.dataByteCount == expected?.utf8.count)
        #expect(message == PusherMessage(event: "e", channel: message.channel, data: expected))
    }

    @Test("a long escaped data field is unescaped whole, and counted by its unescaped bytes")
    func longEscapedData() throws {
        let inner = String(repeating: #"{"price":1.25,"name":"caf\u00e9"},"#, count: 200)
        let json = #"{"event":"e","data":""# + inner.replacingQuotes() + #"","channel":"prices"}"#
        let message = try PusherMessage(parsing: json)
        let expected = inner.replacingOccurrences(of: #"\u00e9"#, with: "é")
        #expect(message.data == expected)
        #expect(message.fields.approximateByteCount == 64 + 1 + 6 + expected.utf8.count)
        let event = ChannelEvent(message, channel: "prices")
        #expect(event.data == expected)
        #expect(event.withDataBytes { Array($0) } == Array(expected.utf8))
    }

    @Test("escaped data takes no more room than its unescaped bytes, whatever follows it in the message")
    func escapedDataRoom() throws {
        let padding = String(repeating: "p", count: 10_000)
        let json = #"{"event":"e","data":"{\"a\":\"\u00e9\"}","padding":""# + padding + #""}"#
        let message = try PusherMessage(parsing: json)
        #expect(message.data == #"{"a":"é"}"#)
        #expect(message.fields.dataCapacity < 64)
    }

    @Test("invalid UTF-8 in the data is repaired with U+FFFD whether it is read as text or as bytes")
    func invalidUTF8() throws {
        var bytes = Array(#"{"event":"e","data":"a"#.utf8)
        bytes.append(0xFF)
        bytes.append(contentsOf: Array(#"b"}"#.utf8))
        let message = try bytes.withUnsafeBytes { try PusherMessage(parsing: $0) }
        #expect(message.data == "a\u{FFFD}b")
        #expect(message.fields.dataByteCount == 3)
        // Read as bytes, the data is repaired the same way (so decoding sees the same text).
        #expect(message.withDataBytes { Array($0) } == Array("a\u{FFFD}b".utf8))
    }

    @Test("an event made field by field keeps its data, and a copy shares the object")
    func constructed() {
        let event = ChannelEvent(channel: "c", name: "e", data: "héllo")
        let copy = event
        #expect(copy.data == "héllo")
        #expect(copy.withDataBytes { Array($0) } == Array("héllo".utf8))
        var changed = copy
        changed.data = "other"
        #expect(event.data == "héllo")
        #expect(changed.data == "other")
        #expect(ChannelEvent(channel: "c", name: "e", data: "").withDataBytes { $0.count } == 0)
    }
}

extension String {
    /// The text as the content of a JSON string: quotes escaped.
    fileprivate func replacingQuotes() -> String {
        var output = ""
        for character in self {
            if character == "\"" { output += #"\""# } else { output.append(character) }
        }
        return output
    }

    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var output = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            output += rest[..<range.lowerBound]
            output += replacement
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
