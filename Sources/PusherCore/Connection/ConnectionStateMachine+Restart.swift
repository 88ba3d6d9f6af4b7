// SPDX-License-Identifier: MIT

// Starting the connection afresh on request (the client switched to other endpoints).
extension ConnectionStateMachine {
    /// Drops the current connection (or attempt, or pending delay) and opens a new attempt at once,
    /// with the attempt counter starting afresh: subscriptions are lost with the old socket and made
    /// again on the new one, as after any reconnect. Does nothing when idle (initialized,
    /// disconnected or failed: the next ``connect(at:)`` opens the new attempt) or stopped.
    package mutating func restart(at now: Duration) -> [Action] {
        self.refusalsInARow = 0
        switch self.state {
        case .idle, .stopped:
            return []
        case .connecting, .connected, .waiting:
            var actions = self.tearDown(at: now)
            // A connected socket is being closed gracefully; a new one does not wait for it.
            self.violation = nil
            actions += self.open(Attempt(generation: 0, attempt: 0, streak: 0), at: now)
            return actions
        }
    }

    /// The client now tries `count` endpoints in turn (at least one): its endpoint and fallbacks.
    package mutating func endpointsChanged(count: Int) {
        self.endpointCount = max(1, count)
    }
}
