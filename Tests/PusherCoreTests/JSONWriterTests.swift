// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test(
        "strings are quoted with the escapes JSON needs, and nothing else escaped",
        arguments: [
            ("", #""""#),
            ("plain", #""plain""#),
            ("a\"b\\c", #""a\"b\\c""#),
            ("\n\r\t", #""\n\r\t""#),
            ("\u{0}\u{1}\u{8}\u{C}\u{1F}", #""\u0000\u0001\u0008\u000c\u001f""#),
            ("/ \u{7F} é 😀", "\"/ \u{7F} é 😀\""),
        ]
    )
    func quoted(value: String, text: String) {
        #expect(JSONWriter.quoted(value) == text)
    }

    @Test("appending keeps what the output already holds")
    func appends() {
        var output = "{\"k\":"
        JSONWriter.appendQuoted("v\"", to: &output)
        #expect(output == #"{"k":"v\"""#)
    }

    @Test("every ASCII character and some beyond round-trip through the parser")
    func roundTrip() throws {
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é€😀\u{10FFFF}"
        #expect(try JSONValue(parsing: JSONWriter.quoted(text)) == .string(text))
    }
}
