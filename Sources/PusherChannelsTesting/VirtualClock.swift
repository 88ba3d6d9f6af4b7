// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers

/// A `Clock` whose time moves only when a test moves it.
///
/// Give it to a `PusherClient` and every timer of the client (activity and pong timeouts, the
/// handshake timeout, reconnect backoff) waits on it. A test then waits until the client is
/// sleeping (``waitForSleepers(count:)``), checks what it is waiting for (``pendingDeadlines``),
/// and moves time (``advance(by:)``). Nothing depends on real time, so such tests are fast and
/// deterministic.
///
/// ```swift
/// let clock = VirtualClock()
/// let client = PusherClient(key: server.appKey, configuration: server.clientConfiguration(), clock: clock)
/// // … the server closes the connection with 4100 …
/// await clock.waitForSleepers()
/// #expect(clock.pendingDeadlines == [clock.now.advanced(by: .seconds(1))])
/// clock.advance(by: .seconds(1))   // the reconnect attempt starts now
/// ```
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: an offset from the clock's creation.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: self.offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - self.offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "t+\(self.offset)" }
    }

    private struct Sleeper: Sendable {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter: Sendable {
        let id: Int
        let condition: @Sendable ([Instant]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State: Sendable {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = NIOLockedValueBox(State())

    /// Removes and returns the waiters whose condition now holds. Call with the lock held.
    private static func readyWaiters(_ state: inout State) -> [Waiter] {
        guard !state.waiters.isEmpty else { return [] }
        let deadlines = state.sleepers.map(\.deadline).sorted()
        var ready: [Waiter] = []
        state.waiters.removeAll { waiter in
            guard waiter.condition(deadlines) else { return false }
            ready.append(waiter)
            return true
        }
        return ready
    }

    public init() {}

    public var now: Instant { self.state.withLockedValue { $0.now } }

    public var minimumResolution: Duration { .zero }

    /// The deadlines of every task sleeping on this clock now, earliest first.
    public var pendingDeadlines: [Instant] {
        self.state.withLockedValue { $0.sleepers.map(\.deadline).sorted() }
    }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { self.state.withLockedValue { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: Int? = self.state.withLockedValue { state in
            guard deadline > state.now else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else {
            try Task.checkCancellation()
            return
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeWith, waiters): (Result<Void, any Error>?, [Waiter]) = self.state.withLockedValue { state in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.readyWaiters(&state))
                }
                if let resumeWith { continuation.resume(with: resumeWith) }
                for waiter in waiters { waiter.continuation.resume() }
            }
        } onCancel: {
            let (sleeper, waiters): (Sleeper?, [Waiter]) = self.state.withLockedValue { state in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    let sleeper = state.sleepers.remove(at: index)
                    return (sleeper, Self.readyWaiters(&state))
                }
                state.cancelled.insert(id)
                return (nil, [])
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in waiters { waiter.continuation.resume() }
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        self.advance(to: self.now.advanced(by: duration))
    }

    /// Moves time forward to `instant` (never backwards), waking every sleeper whose deadline has come.
    public func advance(to instant: Instant) {
        let (due, waiters): ([Sleeper], [Waiter]) = self.state.withLockedValue { state in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return (due, Self.readyWaiters(&state))
        }
        for sleeper in due { sleeper.continuation.resume() }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(count: Int = 1) async {
        await self.waitUntilPending { $0.count >= count }
    }

    /// Suspends until the tasks sleeping on this clock wait for exactly these deadlines, given as
    /// offsets from the clock's creation (order does not matter).
    ///
    /// This is how a test knows the client has armed the timer it expects: for example, after a
    /// 4100 close, `await clock.waitForDeadlines([clock.now.offset + .seconds(1)])`.
    public func waitForDeadlines(_ offsets: [Duration]) async {
        let expected = offsets.sorted()
        await self.waitUntilPending { $0.map(\.offset) == expected }
    }

    /// Suspends until `condition` holds for the sorted deadlines of the tasks sleeping now, or the
    /// task is cancelled.
    public func waitUntilPending(_ condition: @escaping @Sendable ([Instant]) -> Bool) async {
        let id = self.state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = self.state.withLockedValue { state -> Bool in
                    if state.cancelled.remove(id) != nil { return true }
                    if condition(state.sleepers.map(\.deadline).sorted()) { return true }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter: Waiter? = self.state.withLockedValue { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
    }

    /// Waits for a sleeper, then moves time to the earliest deadline. Returns how far time moved.
    @discardableResult
    public func advanceToNextDeadline() async -> Duration {
        await self.waitForSleepers()
        let now = self.now
        guard let next = self.pendingDeadlines.first else { return .zero }
        self.advance(to: next)
        return now.duration(to: next)
    }
}
