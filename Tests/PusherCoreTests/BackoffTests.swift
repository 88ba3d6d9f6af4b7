// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Backoff and close codes")
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

    @Test(
        "close codes map to the protocol's reconnect rules",
        arguments: [
            (Int?.none, CloseCodePolicy.reconnectWithBackoff(minimumDelay: .zero)),
            (1000, .reconnectWithBackoff(minimumDelay: .zero)),
            (1006, .reconnectWithBackoff(minimumDelay: .zero)),
            (4000, .doNotReconnect), (4001, .doNotReconnect), (4099, .doNotReconnect),
            (4100, .reconnectWithBackoff(minimumDelay: .seconds(1))), (4199, .reconnectWithBackoff(minimumDelay: .seconds(1))),
            (4200, .reconnectImmediately), (4201, .reconnectImmediately), (4299, .reconnectImmediately),
            (4300, .reconnectWithBackoff(minimumDelay: .zero)),
        ]
    )
    func closeCodes(code: Int?, policy: CloseCodePolicy) {
        #expect(CloseCodePolicy(closeCode: code) == policy)
    }
}

@Suite("Rate limiter")
struct RateLimiterTests {
    @Test("at most `limit` permits in any window; the wait is until the oldest leaves the window")
    func slidingWindow() {
        var limiter = RateLimiter(limit: 3, per: .seconds(1))
        #expect(limiter.permit(at: .zero) == nil)
        #expect(limiter.permit(at: .milliseconds(100)) == nil)
        #expect(limiter.permit(at: .milliseconds(200)) == nil)
        #expect(limiter.permit(at: .milliseconds(300)) == .milliseconds(700))
        #expect(limiter.permit(at: .milliseconds(999)) == .milliseconds(1))
        #expect(limiter.permit(at: .seconds(1)) == nil)
        #expect(limiter.permit(at: .seconds(1)) == .milliseconds(100))
    }
}
