// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test("delays double from the initial delay up to the cap")
    func growth() {
        let backoff = Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(10), multiplier: 2, jitter: 0)
        let delays = (1...6).map { backoff.delay(forAttempt: $0, random: 0.5) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    }

    @Test("jitter only shortens a delay, by at most its fraction")
    func jitterBounds() {
        let backoff = Backoff(initialDelay: .seconds(4), maximumDelay: .seconds(30), multiplier: 2, jitter: 0.25)
        #expect(backoff.delay(forAttempt: 1, random: 0) == .seconds(4))
        #expect(backoff.delay(forAttempt: 1, random: 1) == .seconds(3))
        for sample in stride(from: 0.0, to: 1.0, by: 0.05) {
            let delay = backoff.delay(forAttempt: 2, random: sample)
            #expect(delay <= .seconds(8) && delay >= .seconds(6))
        }
    }
}
