// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

// The server's state, and waiting for it to match a condition.
extension FakePusherServer {
    /// The server's state now.
    public var snapshot: Snapshot {
        Snapshot(
            connections: self.order.compactMap { self.live[$0]?.connection },
            refusedConnections: self.refusedCount.withLockedValue { $0 },
            authRequests: self.authRequests,
            webhooksDelivered: self.webhooksDelivered,
            webhooksFailed: self.webhooksFailed
        )
    }

    /// Suspends until `condition` holds for the server's state, or the task is cancelled (bound it
    /// with a test time limit).
    public func waitUntil(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
        if condition(self.snapshot) { return }
        let signal = WaitableState(false)
        self.waiters.append(Waiter(condition: condition, signal: signal))
        await signal.waitUntilFired()
    }

    /// Suspends until `count` connections have been opened in total (open or not).
    public func waitForConnections(count: Int) async {
        await self.waitUntil { $0.connections.count >= count }
    }

    /// Suspends until `count` open connections are subscribed to `channel`.
    public func waitForSubscribers(of channel: String, count: Int = 1) async {
        await self.waitUntil { $0.subscribers(of: channel) >= count }
    }

    /// Suspends until clients have sent `count` messages named `event` in total; returns them.
    @discardableResult
    public func waitForMessages(named event: String, count: Int = 1) async -> [ReceivedMessage] {
        await self.waitUntil { $0.messages(named: event).count >= count }
        return self.snapshot.messages(named: event)
    }

    func changed() {
        guard !self.waiters.isEmpty else { return }
        let snapshot = self.snapshot
        var remaining: [Waiter] = []
        for waiter in self.waiters {
            if waiter.condition(snapshot) {
                waiter.signal.fire()
            } else {
                remaining.append(waiter)
            }
        }
        self.waiters = remaining
    }
}
