// SPDX-License-Identifier: MIT

// The machine's timers: the liveness timer of the active socket (handshake, activity, pong), the
// close timeout of sockets being closed, and the reconnect delay.
extension ConnectionStateMachine {
    /// A timer this machine scheduled fired. Timers that are no longer scheduled (the driver fired
    /// one it had just been told to cancel, or another machine's) change nothing.
    package mutating func timerFired(_ timer: TimerID, at now: Duration, random: Double) -> [Action] {
        switch timer {
        case .handshake(let generation), .activity(let generation), .pong(let generation):
            guard self.livenessTimer == timer else { return [] }
            self.livenessTimer = nil
            return self.livenessTimerFired(generation, at: now, random: random)
        case .close(let generation):
            return self.closeTimerFired(generation, at: now)
        case .reconnect(let generation):
            guard case .waiting(let attempt) = self.state, attempt.generation == generation else { return [] }
            return self.open(attempt, at: now)
        case .clientEvents, .authorization, .keyReload, .userAuthentication, .subscriptionRetry:
            return []
        }
    }

    /// Handshake timeout while connecting; when connected, a ping after the activity timeout of
    /// silence, then the pong timeout.
    private mutating func livenessTimerFired(_ generation: Generation, at now: Duration, random: Double) -> [Action] {
        switch self.state {
        case .connecting(let attempt, let startedAt, _, _) where attempt.generation == generation:
            let deadline = startedAt + self.configuration.handshakeTimeout
            guard now >= deadline else { return self.scheduleLiveness(.handshake(generation), deadline: deadline) }
            let cause = PusherError(
                .handshakeTimeout, "no pusher:connection_established within \(self.configuration.handshakeTimeout)")
            return [.abortConnection(generation: generation)]
                + self.connectionEnded(generation: generation, cause: cause, at: now, random: random)

        case .connected(let attempt, let socketID, let activityTimeout, let pingSentAt, let since)
        where attempt.generation == generation:
            // Not read by the client's choice (flow control): not a sign of a dead connection. A
            // ping still goes out every activity timeout, so the server sees a live client and does
            // not drop it for silence, but no pong is awaited (it waits unread behind the events);
            // silence counts again once reading resumes.
            if self.pausedGeneration == generation {
                if pingSentAt != nil {
                    self.state = .connected(
                        attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: nil, since: since)
                }
                return [.send(generation: generation, text: OutboundMessage.ping)]
                    + self.scheduleLiveness(.activity(generation), deadline: now + activityTimeout)
            }
            if let pingSentAt, self.lastActivity < pingSentAt {
                let deadline = pingSentAt + self.configuration.pongTimeout
                guard now >= deadline else { return self.scheduleLiveness(.pong(generation), deadline: deadline) }
                let cause = PusherError(.pongTimeout, "no reply to ping within \(self.configuration.pongTimeout)")
                return [.abortConnection(generation: generation)]
                    + self.connectionEnded(generation: generation, cause: cause, at: now, random: random)
            }
            // Anything that arrived answers a ping; silence for the activity timeout sends one.
            let idleDeadline = self.lastActivity + activityTimeout
            guard now >= idleDeadline else {
                if pingSentAt != nil {
                    self.state = .connected(
                        attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: nil, since: since)
                }
                return self.scheduleLiveness(.activity(generation), deadline: idleDeadline)
            }
            self.state = .connected(
                attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: now, since: since)
            return [.send(generation: generation, text: OutboundMessage.ping)]
                + self.scheduleLiveness(.pong(generation), deadline: now + self.configuration.pongTimeout)

        default:
            return []
        }
    }

    /// A socket the client closed is still there after the close timeout: drop it.
    private mutating func closeTimerFired(_ generation: Generation, at now: Duration) -> [Action] {
        guard let started = self.closing[generation] else { return [] }
        let deadline = started + self.configuration.closeTimeout
        guard now >= deadline else { return [.scheduleTimer(.close(generation), deadline: deadline)] }
        self.closing[generation] = nil
        return [.abortConnection(generation: generation)] + self.finishedIfDone()
    }

    /// Makes `timer` the active socket's liveness timer, cancelling the one it replaces.
    mutating func scheduleLiveness(_ timer: TimerID, deadline: Duration) -> [Action] {
        var actions = self.livenessTimer == timer ? [] : self.cancelLivenessTimer()
        self.livenessTimer = timer
        actions.append(.scheduleTimer(timer, deadline: deadline))
        return actions
    }

    /// Cancels the active socket's liveness timer, if one is scheduled.
    mutating func cancelLivenessTimer() -> [Action] {
        guard let timer = self.livenessTimer else { return [] }
        self.livenessTimer = nil
        return [.cancelTimer(timer)]
    }
}
