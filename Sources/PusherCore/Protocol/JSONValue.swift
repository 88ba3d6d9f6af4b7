// SPDX-License-Identifier: MIT

/// A parsed JSON value, used for the protocol's control payloads (not for channel events, whose data
/// is handed to the consumer as text).
///
/// Numbers keep their exact text so that ids such as `10` or `1.5` round-trip unchanged.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one complete JSON document.
    public init(parsing text: String) throws(PusherError) {
        do {
            self = try JSONScanner.withBytes(of: text) { (bytes) throws(JSONError) -> JSONValue in
                var scanner = JSONScanner(bytes)
                let value = try JSONValue.read(&scanner, depth: 0)
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw JSONError("trailing characters") }
                return value
            }
        } catch {
            throw PusherError(.malformedMessage, "invalid JSON: \(error.reason)")
        }
    }

    private static func read(_ scanner: inout JSONScanner, depth: Int) throws(JSONError) -> JSONValue {
        guard depth < 256 else { throw JSONError("nesting too deep") }
        switch try scanner.peek() {
        case UInt8(ascii: "\""):
            return .string(try scanner.readString())
        case UInt8(ascii: "{"):
            _ = try scanner.consume(UInt8(ascii: "{"))
            var object: [String: JSONValue] = [:]
            if try scanner.consume(UInt8(ascii: "}")) { return .object(object) }
            repeat {
                let key = try scanner.readString()
                try scanner.expect(UInt8(ascii: ":"))
                object[key] = try read(&scanner, depth: depth + 1)
            } while try scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
            return .object(object)
        case UInt8(ascii: "["):
            _ = try scanner.consume(UInt8(ascii: "["))
            var array: [JSONValue] = []
            if try scanner.consume(UInt8(ascii: "]")) { return .array(array) }
            repeat {
                array.append(try read(&scanner, depth: depth + 1))
            } while try scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"))
            return .array(array)
        case UInt8(ascii: "t"):
            _ = try scanner.skipValue()
            return .bool(true)
        case UInt8(ascii: "f"):
            _ = try scanner.skipValue()
            return .bool(false)
        case UInt8(ascii: "n"):
            _ = try scanner.skipValue()
            return .null
        default:
            let range = try scanner.skipValue()
            return .number(scanner.text(range))
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an integer, for numbers and for strings holding an integer.
    public var intValue: Int? {
        switch self {
        case .number(let text), .string(let text):
            if let value = Int(text) { return value }
            return Double(text).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil }
        default:
            return nil
        }
    }

    /// The value as a string id: strings as they are, numbers as their text (`10` → `"10"`).
    package var idValue: String? {
        switch self {
        case .string(let value), .number(let value): return value
        default: return nil
        }
    }

    /// Compact JSON text for the value. Object keys are written in sorted order.
    public var jsonText: String {
        var output = ""
        self.write(to: &output)
        return output
    }

    func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let value): JSONWriter.appendQuoted(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                JSONWriter.appendQuoted(key, to: &output)
                output += ":"
                object[key]!.write(to: &output)  // the key was just read from `object`
            }
            output += "}"
        }
    }
}

// No ExpressibleByNilLiteral: `nil` must keep meaning "absent" for `JSONValue?`, never `.null`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// About how many bytes the value keeps alive: the UTF-8 of its strings, numbers and keys, plus
    /// 16 per value and per key. Linear in the value's size; limits use it, not the per-event path.
    package var approximateByteCount: Int {
        switch self {
        case .null, .bool: 16
        case .number(let text), .string(let text): 16 + text.utf8.count
        case .array(let values): values.reduce(16) { $0 + $1.approximateByteCount }
        case .object(let members):
            members.reduce(16) { $0 + 16 + $1.key.utf8.count + $1.value.approximateByteCount }
        }
    }
}
