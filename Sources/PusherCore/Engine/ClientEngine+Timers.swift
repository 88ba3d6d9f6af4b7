// SPDX-License-Identifier: MIT

// The engine's end of the one timer model: every timer fires here, and the timeouts of authorizer
// and user-authenticator calls live here.
extension ClientEngine {
    /// `timer` is due: the driver scheduled it with ``Action/scheduleTimer(_:deadline:)`` and did not
    /// cancel it. `random` is a uniform sample in `0..<1` for a backoff it may start. Timers that
    /// are no longer awaited (a call that was answered, a socket that is gone) change nothing.
    package mutating func timerFired(_ timer: TimerID, at now: Duration, random: Double) -> [Action] {
        self.now = now
        var actions: [Action] = []
        switch timer {
        case .handshake, .activity, .pong, .close, .reconnect:
            return self.apply(self.connection.timerFired(timer, at: now, random: random))
        case .clientEvents:
            self.clientEventTimerFired(at: now, into: &actions)
        case .subscriptionRetry(let channel):
            self.apply(self.subscriptions.retryDue(channel), into: &actions)
        case .authorization(let channel, let socketID):
            guard let call = self.outstandingCalls.removeValue(forKey: timer) else { return [] }
            let error = PusherError(
                .authorizationFailed, "the authorizer did not answer within \(self.configuration.authorizationTimeout)",
                channel: channel.rawValue)
            actions.append(.cancelCall(timer, reason: error, call: call))
            self.authorized(channel: channel, socketID: socketID, result: .failure(error), into: &actions)
        case .keyReload(let channel, let socketID):
            guard let call = self.outstandingCalls.removeValue(forKey: timer) else { return [] }
            let error = PusherError(
                .authorizationFailed, "the authorizer did not answer within \(self.configuration.authorizationTimeout)",
                channel: channel.rawValue)
            actions.append(.cancelCall(timer, reason: error, call: call))
            self.keyReloadAnswered(channel: channel, socketID: socketID, result: .failure(error), into: &actions)
        case .userAuthentication(let socketID):
            guard let call = self.outstandingCalls.removeValue(forKey: timer) else { return [] }
            let error = PusherError(
                .signInFailed, "the user authenticator did not answer within \(self.configuration.authorizationTimeout)"
            )
            actions.append(.cancelCall(timer, reason: error, call: call))
            self.apply(self.signInMachine.authenticationFailed(socketID: socketID, error: error), into: &actions)
        }
        return actions
    }

    /// Starts an authorizer or user-authenticator call: `action`, and `timer`, its timeout, due
    /// ``Configuration/authorizationTimeout`` from now.
    /// A call already under way for the same timer is superseded: its answer will be ignored.
    mutating func startCall(_ timer: TimerID, _ action: Action, into actions: inout [Action]) {
        self.outstandingCalls[timer] = OutstandingCall(start: self.now)
        actions.append(action)
        actions.append(.scheduleTimer(timer, deadline: self.now + self.configuration.authorizationTimeout))
    }

    /// The call that `timer` times answered. Returns whether it was still awaited (its timeout is
    /// then cancelled); a call that timed out already has been failed, and its answer is ignored.
    mutating func callAnswered(_ timer: TimerID, into actions: inout [Action]) -> Bool {
        guard self.outstandingCalls.removeValue(forKey: timer) != nil else { return false }
        actions.append(.cancelTimer(timer))
        return true
    }

    /// Keeps the driver's `handle` on the call that `timer` times, just asked for.
    package mutating func attach(_ handle: any AnyObject & Sendable, toCall timer: TimerID) {
        self.outstandingCalls[timer]?.handle = handle
    }

    /// When the call that `timer` times started, if `handle` is still the one under way; nil when
    /// its answer is to be dropped (the call timed out, was superseded, or the run ended).
    package func start(ofCall timer: TimerID, handle: any AnyObject & Sendable) -> Duration? {
        guard let call = self.outstandingCalls[timer], call.handle === handle else { return nil }
        return call.start
    }
}
