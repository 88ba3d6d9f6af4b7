// SPDX-License-Identifier: MIT

/// The injected clock, reduced to what the client needs: the time since the client was created, and
/// sleeping. Lets `PusherClient` stay non-generic while every timer runs on the caller's clock.
struct ClockAdapter: Sendable {
    private let nowClosure: @Sendable () -> Duration
    private let sleepClosure: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.nowClosure = { origin.duration(to: clock.now) }
        self.sleepClosure = { duration in
            try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
        }
    }

    /// Time elapsed since the adapter was made.
    var now: Duration { self.nowClosure() }

    func sleep(for duration: Duration) async throws {
        try await self.sleepClosure(duration)
    }
}
