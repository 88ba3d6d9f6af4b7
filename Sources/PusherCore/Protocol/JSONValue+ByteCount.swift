// SPDX-License-Identifier: MIT

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
