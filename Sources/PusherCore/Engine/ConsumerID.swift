// SPDX-License-Identifier: MIT

/// The number the engine gives a consumer when it registers it; the driver keeps the consumer's
/// buffer under it. Numbers grow in registration order and are never reused within one engine.
package struct ConsumerID: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let rawValue: Int

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    package static func < (lhs: ConsumerID, rhs: ConsumerID) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { "consumer \(self.rawValue)" }
}
