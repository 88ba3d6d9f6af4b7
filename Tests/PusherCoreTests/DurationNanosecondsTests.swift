// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Duration.clampedNanoseconds: whole nanoseconds in 0...Int64.max, never a trap")
struct DurationNanosecondsTests {
    @Test("ordinary durations convert exactly")
    func exact() {
        #expect(Duration.seconds(10).clampedNanoseconds == 10_000_000_000)
        #expect(Duration.milliseconds(250).clampedNanoseconds == 250_000_000)
        #expect(Duration.nanoseconds(7).clampedNanoseconds == 7)
        #expect(Duration.zero.clampedNanoseconds == 0)
    }

    @Test("too long for Int64 nanoseconds: Int64.max; negative: 0")
    func clamped() {
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == .max)
        #expect(Duration.seconds(Int64.max / 1_000_000_000).clampedNanoseconds > 0)
        #expect((Duration.seconds(9_223_372_036) + .nanoseconds(999_999_999)).clampedNanoseconds == .max)
        #expect(Duration.seconds(-5).clampedNanoseconds == 0)
        #expect(Duration.milliseconds(-1).clampedNanoseconds == 0)
    }
}
