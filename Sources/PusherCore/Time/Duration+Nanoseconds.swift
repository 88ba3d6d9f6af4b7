// SPDX-License-Identifier: MIT

extension Duration {
    /// The duration in whole nanoseconds for timers that count in `Int64` (NIO's `TimeAmount`,
    /// deadlines): clamped to `0...Int64.max`, so a negative duration is 0 and one too long for
    /// `Int64` nanoseconds (over about 292 years) is `Int64.max` instead of a trap.
    package var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = self.components
        guard seconds >= 0 else { return 0 }
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (sum, sumOverflow) = product.addingReportingOverflow(max(0, attoseconds / 1_000_000_000))
        return sumOverflow ? .max : sum
    }
}
