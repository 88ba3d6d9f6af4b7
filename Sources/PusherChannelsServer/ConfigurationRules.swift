// SPDX-License-Identifier: MIT

/// The checks of a configuration's fields.
enum ConfigurationRules {
    /// One DNS label: 1–63 letters, digits and hyphens, not starting or ending with a hyphen.
    static func isDNSLabel(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    /// An app id: letters, digits, `-` and `_` (it becomes a path segment).
    static func isAppID(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// A host name, an IPv4 address or an IPv6 address without brackets.
    static func isHost(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.utf8.allSatisfy {
            Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "%")
        }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }
}
