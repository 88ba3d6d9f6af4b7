// SPDX-License-Identifier: MIT

/// The number of one connection attempt (one socket). Every attempt gets the next one; events
/// about an older generation are ignored, so a late callback from a socket that was already
/// replaced cannot disturb the current one.
package struct Generation: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    package let rawValue: Int

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Lets tests and tables write generations as numbers.
    package init(integerLiteral value: Int) {
        self.rawValue = value
    }

    /// The generation after this one.
    package var next: Generation { Generation(self.rawValue + 1) }

    package static func < (lhs: Generation, rhs: Generation) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { String(self.rawValue) }
}
