// SPDX-License-Identifier: MIT

extension Seeds {
    /// Key, nonce and message for the secretbox target: short inputs (padded), messages around the
    /// 32-byte first block and the 64-byte blocks, and an event-sized one; deterministic bytes.
    static var secretbox: [(String, [UInt8])] {
        var state: UInt32 = 0x5ec7_b0c5
        func byte() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let lengths = [0, 10, 56, 57, 72, 88, 89, 120, 121, 156, 600]
        return lengths.enumerated().map { index, length in
            ("input-" + (index < 10 ? "0" : "") + String(index), (0..<length).map { _ in byte() })
        }
    }
}
