// SPDX-License-Identifier: MIT

/// Text from a server (close reasons, error messages, event and channel names) made safe for a
/// terminal: control characters and bidirectional-formatting characters are written as escapes, so
/// a server cannot move the cursor, change colours, or reorder what the user reads.
enum TerminalText {
    /// `text` with every C0 and C1 control character and DEL as `\xHH`, and the bidirectional
    /// formatting characters as `\u{HHHH}`; everything else unchanged.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: Self.needsEscape) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard Self.needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            if scalar.value < 0x100 {
                output += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                output += "\\u{" + hex + "}"
            }
        }
        return output
    }

    /// A JSON text (one line of standard output) with DEL, the C1 controls and the bidirectional
    /// formatting characters written as `\uHHHH` escapes: the same JSON value, safe for a terminal.
    /// (JSON strings escape C0 controls already; these characters can only be inside strings.)
    static func escapedJSON(_ json: String) -> String {
        // The lead bytes of every character escaped here: 0x7F, 0xC2 (U+0080–U+009F), 0xD8
        // (U+061C) and 0xE2 (U+200E… U+2069). Most lines have none and are returned as they are.
        guard json.utf8.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }),
            json.unicodeScalars.contains(where: Self.needsEscape)
        else { return json }
        var output = ""
        output.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            guard Self.needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return output
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates, and the marks that steer them.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }
}
