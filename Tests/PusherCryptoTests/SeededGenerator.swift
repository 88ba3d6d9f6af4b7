// SPDX-License-Identifier: MIT

/// SplitMix64: a small seeded generator, so a failing random case comes back on the next run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9e37_79b9_7f4a_7c15
        var z = self.state
        z = (z ^ (z &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z &>> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z &>> 31)
    }

    /// `count` random bytes, eight at a time.
    mutating func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            while offset + 8 <= count {
                raw.storeBytes(of: self.next(), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            var last = self.next()
            while offset < count {
                raw[offset] = UInt8(truncatingIfNeeded: last)
                last >>= 8
                offset += 1
            }
            initialized = count
        }
    }
}
