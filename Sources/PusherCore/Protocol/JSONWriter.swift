// SPDX-License-Identifier: MIT

/// Writes JSON text by hand for the few messages this client sends.
package enum JSONWriter {
    /// Appends `value` as a quoted, escaped JSON string.
    package static func appendQuoted(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let scalar where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// `value` as a quoted, escaped JSON string.
    package static func quoted(_ value: String) -> String {
        var output = ""
        appendQuoted(value, to: &output)
        return output
    }
}
