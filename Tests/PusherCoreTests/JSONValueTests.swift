// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("JSON values")
struct JSONValueTests {
    @Test(
        "documents parse into values; numbers keep their exact text",
        arguments: [
            ("null", JSONValue.null),
            (" true ", .bool(true)),
            ("false", .bool(false)),
            ("0", .number("0")),
            ("-1.50e+3", .number("-1.50e+3")),
            (#""a\"b\u00e9""#, .string("a\"bé")),
            ("[]", .array([])),
            (#"[1, "x", [null]]"#, .array([.number("1"), .string("x"), .array([.null])])),
            ("{}", .object([:])),
            (#"{"a":{"b":[true]},"c":"d"}"#, .object(["a": .object(["b": .array([.bool(true)])]), "c": .string("d")])),
            (#"{"k":1,"k":2}"#, .object(["k": .number("2")])),
            ("\n\t{ \"a\" :\r 1 }\n", .object(["a": .number("1")])),
        ]
    )
    func parse(text: String, value: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test(
        "parsing refuses what is not one complete document",
        arguments: ["", "nul", "[1,]", #"{"a":}"#, "1 2", "{'a':1}", "[1"])
    func invalid(text: String) {
        #expect(throws: PusherError.self) { try JSONValue(parsing: text) }
    }

    @Test(
        "integers are read from numbers and from strings holding one",
        arguments: [
            (JSONValue.number("120"), Int?.some(120)),
            (.number("-7"), -7),
            (.number("1.0"), 1),
            (.number("1e2"), 100),
            (.number("1.5"), nil),
            (.number("1e30"), nil),
            (.string("42"), 42),
            (.string("4.0"), 4),
            (.string("forty"), nil),
            (.bool(true), nil),
            (.null, nil),
            (.array([.number("1")]), nil),
        ]
    )
    func intValue(value: JSONValue, expected: Int?) {
        #expect(value.intValue == expected)
    }

    @Test(
        "strings and ids are read from the values that hold them",
        arguments: [
            (JSONValue.string("a"), String?.some("a"), String?.some("a")),
            (.number("10"), nil, "10"),
            (.bool(false), nil, nil),
            (.null, nil, nil),
            (.object(["id": .string("a")]), nil, nil),
        ]
    )
    func stringAndID(value: JSONValue, string: String?, id: String?) {
        #expect(value.stringValue == string)
        #expect(value.idValue == id)
    }

    @Test("subscripts read object members; anything else has none")
    func subscripts() {
        let value: JSONValue = ["a": ["b": 1], "s": "t"]
        #expect(value["a"]?["b"] == .number("1"))
        #expect(value["missing"] == nil)
        #expect(value["s"]?["b"] == nil)
        #expect(JSONValue.array([.null])["a"] == nil)
    }

    @Test(
        "JSON text is compact, with sorted keys and escaped strings, and parses back to the same value",
        arguments: [
            (
                JSONValue.object(["b": 1, "a": [true, false, .null], "c": "q\"\n"]),
                #"{"a":[true,false,null],"b":1,"c":"q\"\n"}"#
            ),
            (.number("1.50"), "1.50"),
            (.string("\u{1}é"), #""\u0001é""#),
            (.array([]), "[]"),
            (.object([:]), "{}"),
        ]
    )
    func jsonText(value: JSONValue, text: String) throws {
        #expect(value.jsonText == text)
        #expect(try JSONValue(parsing: value.jsonText) == value)
    }

    @Test("literals make the values they spell; nil stays absent rather than null")
    func literals() {
        let value: JSONValue = ["s": "x", "n": 3, "b": true, "a": [1, "y"]]
        #expect(
            value
                == .object([
                    "s": .string("x"), "n": .number("3"), "b": .bool(true), "a": .array([.number("1"), .string("y")]),
                ]))
        let absent: JSONValue? = nil
        #expect(absent == nil)
        #expect(absent != .null)
    }

    @Test("JSON values keep number text and read ids")
    func jsonValue() throws {
        let value = try JSONValue(parsing: #"{"socket_id":"1.2","activity_timeout":120,"n":1.50,"id":7}"#)
        #expect(value["socket_id"]?.stringValue == "1.2")
        #expect(value["activity_timeout"]?.intValue == 120)
        #expect(value["n"] == .number("1.50"))
        #expect(value["id"]?.idValue == "7")
        #expect(value.jsonText == #"{"activity_timeout":120,"id":7,"n":1.50,"socket_id":"1.2"}"#)
    }
}
