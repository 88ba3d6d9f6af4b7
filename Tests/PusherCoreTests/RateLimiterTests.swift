// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Rate limiter")
struct RateLimiterTests {
    /// Asks for a permit at each time in milliseconds; returns each answer (nil: granted; else the
    /// wait in milliseconds).
    static func answers(limit: Int, per interval: Duration, at times: [Int]) -> [Duration?] {
        var limiter = RateLimiter(limit: limit, per: interval)
        return times.map { limiter.permit(at: .milliseconds($0)) }
    }

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

    @Test(
        "permit sequences",
        arguments: [
            // Limit 1: one permit per interval, each wait counted from the last grant.
            (1, [0, 0, 500, 999, 1000, 1000, 2500], [nil, 1000, 500, 1, nil, 1000, nil]),
            // A refused request takes no permit: asking again and again does not push the wait back.
            (2, [0, 10, 20, 30, 40, 1000, 1010, 1011], [nil, nil, 980, 970, 960, nil, nil, 989]),
            // After a quiet spell the whole budget is available again.
            (3, [0, 1, 2, 5000, 5000, 5000, 5000], [nil, nil, nil, nil, nil, nil, 1000]),
            // A permit leaves the window exactly one interval after it was granted.
            (2, [0, 400, 1000, 1399, 1400], [nil, nil, nil, 1, nil]),
        ] as [(Int, [Int], [Int?])]
    )
    func sequences(limit: Int, times: [Int], expected: [Int?]) {
        let answers = Self.answers(limit: limit, per: .seconds(1), at: times)
        #expect(answers == expected.map { $0.map { .milliseconds($0) } })
    }

    @Test("a limit below one is taken as one", arguments: [0, -5])
    func minimumLimit(limit: Int) {
        let limiter = RateLimiter(limit: limit, per: .seconds(1))
        #expect(limiter.limit == 1)
        #expect(Self.answers(limit: limit, per: .seconds(1), at: [0, 0]) == [nil, .seconds(1)])
    }

    @Test("the limiter keeps its interval and works at any scale")
    func interval() {
        let limiter = RateLimiter(limit: 10, per: .milliseconds(50))
        #expect(limiter.interval == .milliseconds(50))
        #expect(limiter.limit == 10)
        let answers = Self.answers(limit: 10, per: .milliseconds(50), at: Array(repeating: 7, count: 11))
        #expect(answers.prefix(10).allSatisfy { $0 == nil })
        #expect(answers.last == .milliseconds(50))
    }
}
