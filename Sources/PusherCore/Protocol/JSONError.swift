// SPDX-License-Identifier: MIT

/// Why a piece of JSON could not be read.
struct JSONError: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
