// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON scanner and the decoding of inbound messages (envelope, control
// payloads, encrypted fields), with invariants that compare the readers with each other and with
// a reference unescaper.

@testable import PusherCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzScanner(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
    let fromBytes = try? PusherMessage(parsing: bytes)
    let message = try? PusherMessage(parsing: text)
    // Invalid UTF-8 is repaired the same way whether the frame is read as bytes or as a String.
    if isUTF8 { check(fromBytes == message, "byte and text parses differ") }
    let value = try? JSONValue(parsing: text)
    if let message { checkEnvelope(message, against: value) }
    if let value {
        let again = try? JSONValue(parsing: value.jsonText)
        check(again == value, "jsonText does not parse back to the same value")
        check(again?.jsonText == value.jsonText, "jsonText is not stable")
    }
    checkEncryptedFields(text, against: value)
    checkStringBody(Array(bytes))
    return 0
}

/// A message parsed from text that is also a JSON object, whose fields it matches.
func checkEnvelope(_ message: PusherMessage, against value: JSONValue?) {
    guard case .object(let object)? = value else { fail("a message parsed from text that is not a JSON object") }
    check(object["event"]?.stringValue == message.event, "event differs from the JSON object's")
    check(object["channel"]?.stringValue == message.channel, "channel differs from the JSON object's")
    for (key, field) in [("data", message.data), ("user_id", message.userID)] {
        switch object[key] {
        case nil, .null?: check(field == nil, "\(key) should be absent")
        case .string(let string)?: check(field == string, "\(key) string differs")
        case let other?: check(field.flatMap { try? JSONValue(parsing: $0) } == other, "\(key) JSON text differs")
        }
    }
    let reparsed = try? PusherMessage(parsing: message.serializedWithStringData)
    check(reparsed == message, "a message does not survive serializing")
    _ = try? message.parsedData()
    _ = ClientEngine.serverError(from: message)
}

/// `EncryptedFields` reads an object's last string `nonce` and `ciphertext`.
func checkEncryptedFields(_ text: String, against value: JSONValue?) {
    let fields = try? EncryptedFields(parsing: text)
    if fields != nil, case .object? = value {
    } else {
        check(fields == nil, "encrypted fields read from text that is not a JSON object")
    }
    if let nonce = value?["nonce"]?.stringValue, let ciphertext = value?["ciphertext"]?.stringValue {
        check(
            fields == EncryptedFields(nonce: nonce, ciphertext: ciphertext),
            "encrypted fields differ from the JSON object's")
    }
}

/// The input as the inside of a string: the scanner and the reference agree on validity and content.
func checkStringBody(_ body: [UInt8]) {
    let quoted = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
    let scanned = quoted.withUnsafeBufferPointer { buffer -> String? in
        var scanner = JSONScanner(buffer)
        guard let string = try? scanner.readString(), scanner.isAtEnd else { return nil }
        return string
    }
    let expected = ReferenceUnescaper.unescape(body)
    check(scanned == expected, "scanner and reference unescape differ")
    let skipped = quoted.withUnsafeBufferPointer { buffer -> Bool in
        var scanner = JSONScanner(buffer)
        return (try? scanner.skipValue()) != nil && scanner.isAtEnd
    }
    check(skipped == (expected != nil), "skipping and reading a string disagree on its validity")
}
