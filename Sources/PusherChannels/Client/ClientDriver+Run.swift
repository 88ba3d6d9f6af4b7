// SPDX-License-Identifier: MIT

import PusherCore

extension ClientDriver {
    /// Connects, or fails at once when the options cannot form a connection.
    mutating func connect() {
        switch self.configuredEndpoints {
        case .success:
            self.perform(self.engine.connect(at: self.clock.now))
        case .failure(let error):
            self.perform(self.engine.configurationInvalid(error, at: self.clock.now))
        }
    }

    /// The run is over: the final state is told, every sequence finishes, and consumers made from
    /// now on finish at once.
    mutating func runEnded() {
        self.perform(self.engine.runEnded(at: self.clock.now))
        self.registry.close()
        for handle in self.connections.values { handle.headersAbandoned.fire() }
        self.connections = [:]
        self.endConnectionSpans(state: nil)
        self.timers = TimerSchedule()
        for waiter in self.consumerWaiters { waiter.signal.fire() }
        self.consumerWaiters = []
        self.clientEventRoomMayHaveChanged()
        self.runPhase = .finished
    }

    /// Wakes every `triggerWaitingForRoom` waiting for room, to offer its event again.
    mutating func clientEventRoomMayHaveChanged() {
        guard !self.clientEventRoomWaiters.isEmpty else { return }
        for room in self.clientEventRoomWaiters { room.fire() }
        self.clientEventRoomWaiters = []
    }
}
