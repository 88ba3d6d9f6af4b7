// SPDX-License-Identifier: MIT

/// The injected clock, reduced to what the client needs: the time since the client was created, and
/// sleeping until such a time. Lets `PusherClient` stay non-generic while every timer runs on the
/// caller's clock.
struct ClockAdapter: Sendable {
    private let nowClosure: @Sendable () -> Duration
    private let sleepClosure: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.nowClosure = { origin.duration(to: clock.now) }
        self.sleepClosure = { deadline in
            try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil)
        }
    }

    /// Time elapsed since the adapter was made.
    var now: Duration { self.nowClosure() }

    /// Sleeps until ``now`` reaches `deadline` (at once if it has).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(until deadline: Duration) async throws {
        try await self.sleepClosure(deadline)
    }
}
