// SPDX-License-Identifier: MIT

/// Uniform samples in `0..<1` for the jitter of subscription retries, from a seed the driver passes
/// in: the engine stays deterministic (the same seed gives the same delays) and reads no system
/// randomness. SplitMix64, which is plenty for spreading retries apart.
struct JitterSource: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> Double {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var value = self.state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        // The top 53 bits, as a fraction.
        return Double(value >> 11) / Double(1 << 53)
    }
}
