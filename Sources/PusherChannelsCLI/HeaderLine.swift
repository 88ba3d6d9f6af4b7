// SPDX-License-Identifier: MIT

/// One HTTP header given as `Name: value` (`--auth-header`, `--auth-header-file`,
/// `PUSHER_AUTH_HEADER`).
struct HeaderLine: Sendable, Hashable {
    var name: String
    var value: String

    /// Parses `Name: value`: the name is an HTTP token (letters, digits and ``!#$%&'*+-.^_`|~``),
    /// the value has no line breaks or NUL; whitespace around both is dropped. The error never
    /// repeats the value, which is often a secret, nor what follows an invalid character of the
    /// name. `kind` names the header in errors.
    static func parse(_ text: String, kind: String = "an auth header") throws(CLIError) -> HeaderLine {
        guard let colon = text.firstIndex(of: ":") else {
            throw CLIError("\(kind) takes 'Name: value' (no ':' found)")
        }
        let name = text[..<colon].trimmingWhitespace()
        let value = text[text.index(after: colon)...].trimmingWhitespace()
        guard !name.isEmpty else { throw CLIError("\(kind) takes 'Name: value' (the name is empty)") }
        if let invalid = name.unicodeScalars.firstIndex(where: { !Self.isTokenCharacter($0) }) {
            throw CLIError("the name of \(kind) is not a valid HTTP header name: \(Self.describe(invalid, in: name))")
        }
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw CLIError("the value of \(kind) '\(name)' has a line break or NUL")
        }
        return HeaderLine(name: name, value: value)
    }

    /// Headers as the authorizers take them; a later header of the same name (any case) replaces an
    /// earlier one.
    static func dictionary(_ headers: [HeaderLine]) -> [String: String] {
        var result: [String: String] = [:]
        for header in headers {
            if let existing = result.keys.first(where: { $0.lowercased() == header.name.lowercased() }) {
                result[existing] = nil
            }
            result[header.name] = header.value
        }
        return result
    }

    /// Where the first invalid character of `name` is, naming only what comes before it: a name
    /// with a space is often a mistyped `Authorization Bearer <token>`, whose rest is a secret.
    private static func describe(_ invalid: String.UnicodeScalarView.Index, in name: String) -> String {
        let scalars = name.unicodeScalars
        let position = scalars.distance(from: scalars.startIndex, to: invalid) + 1
        let character =
            switch scalars[invalid] {
            case " ": "a space"
            case "\t": "a tab"
            case let scalar: "'\(TerminalText.escaped(String(scalar)))'"
            }
        let before = String(scalars[..<invalid])
        let prefix = before.isEmpty ? "" : " after '\(TerminalText.escaped(before))'"
        return "character \(position) is \(character)\(prefix); the rest is not repeated"
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = self.firstIndex(where: { !isBlank($0) }), let last = self.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(self[first...last])
    }
}
