// SPDX-License-Identifier: MIT

import PusherCore
import Testing

/// A `JSONError`'s reason is what users read: it ends up in the message of the `malformedMessage`
/// error of whatever could not be parsed.
@Suite("JSON errors")
struct JSONErrorTests {
    @Test(
        "a message that cannot be read says why",
        arguments: [
            ("", "invalid message: unexpected end of input"),
            ("[]", "invalid message: expected '{' at byte 0"),
            (#"{"event":"e""#, "invalid message: unexpected end of input"),
            (#"{"event":1}"#, "invalid message: event is not a string"),
            (#"{"channel":"c"}"#, "invalid message: no event name"),
            (#"{"event":"e"} x"#, "invalid message: trailing characters"),
            (#"{"event":"e","channel":5}"#, "invalid message: channel is not a string"),
            (#"{"event":"e","data":"\q"}"#, "invalid message: invalid escape"),
            (#"{"event":"e","data":"\u12"}"#, "invalid message: invalid unicode escape"),
            (#"{"event":"e","data":"abc"#, "invalid message: unterminated string"),
            (#"{"event":"e","data":tru}"#, "invalid message: invalid literal"),
            (#"{"event":"e","data":-}"#, "invalid message: invalid number"),
            (#"{"event":"e","data":"#, "invalid message: unexpected end of input"),
            (#"{"event":"e","data":"# + String(repeating: "[", count: 300), "invalid message: nesting too deep"),
        ]
    )
    func messageReasons(text: String, message: String) {
        #expect {
            try PusherMessage(parsing: text)
        } throws: { error in
            guard let error = error as? PusherError else { return false }
            return error.code == .malformedMessage && error.message == message
        }
    }

    @Test(
        "JSON that cannot be read says why",
        arguments: [
            ("", "invalid JSON: unexpected end of input"),
            ("{} {}", "invalid JSON: trailing characters"),
            (#"{"a" 1}"#, "invalid JSON: expected ':' at byte 5"),
            ("\"a\u{1}\"", "invalid JSON: control character in string"),
            ("@", "invalid JSON: unexpected byte at 0"),
            (String(repeating: "[", count: 257), "invalid JSON: nesting too deep"),
        ]
    )
    func valueReasons(text: String, message: String) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? PusherError else { return false }
            return error.code == .malformedMessage && error.message == message
        }
    }
}
