// SPDX-License-Identifier: MIT

// Opening attempts, and what follows when a socket ends: the close-code policy, the backoff, the
// attempt limit.
extension ConnectionStateMachine {
    /// Starts the next attempt (a new generation) with its handshake timeout.
    mutating func open(_ previous: Attempt, at now: Duration) -> [Action] {
        var attempt = previous
        attempt.generation = self.nextGeneration
        self.nextGeneration = self.nextGeneration.next
        self.lastActivity = now
        self.state = .connecting(attempt, startedAt: now, socketOpen: false, established: nil)
        return [.openConnection(generation: attempt.generation)] + self.publish(.connecting(attempt: attempt.attempt))
            + self.scheduleLiveness(
                .handshake(attempt.generation), deadline: now + self.configuration.handshakeTimeout)
    }

    /// The socket of `generation` is gone (closed, failed, or timed out): finishes a close the
    /// client started, or decides whether and when to reconnect.
    mutating func connectionEnded(
        generation: Generation,
        cause reported: PusherError,
        at now: Duration,
        random: Double
    ) -> [Action] {
        var cause = reported
        if let violation = self.violation, violation.generation == generation {
            self.violation = nil
            cause = violation.cause
        }
        if self.closing.removeValue(forKey: generation) != nil {
            return [.cancelTimer(.close(generation))] + self.finishedIfDone()
        }
        var actions: [Action] = []
        let previous: Attempt
        var neverEstablished = false
        switch self.state {
        case .connecting(let attempt, _, _, _) where attempt.generation == generation:
            actions += self.cancelLivenessTimer()
            previous = attempt
            neverEstablished = true
        case .connected(let attempt, _, _, _, let since) where attempt.generation == generation:
            actions += self.cancelLivenessTimer()
            // A connection that stayed up for `resetAfter`, or delivered a channel event and stayed
            // up for the settle time, was healthy: the backoff starts afresh. Frames alone prove
            // nothing: a server that establishes, sends one event and closes is met with backoff.
            let backoff = self.configuration.backoff
            let upFor = now - since
            let healthy = upFor >= backoff.resetAfter || (self.deliveredChannelEvent && upFor >= backoff.settleTime)
            previous = healthy ? Attempt(generation: attempt.generation, attempt: 0, streak: 0) : attempt
            actions.append(.connectionLost)
        default:
            return []
        }

        var policy: CloseCodePolicy =
            cause.code == .pongTimeout ? .reconnectImmediately : CloseCodePolicy(closeCode: cause.closeCode)
        if policy == .reconnectImmediately && previous.reconnectedImmediately {
            policy = .reconnectWithBackoff(minimumDelay: .zero)
        }
        // One endpoint's refusal (an unknown app key, a disabled app) before the handshake says
        // nothing about the others: they are tried in turn, under the backoff, and the client stops
        // only once each of them has refused in a row.
        if policy == .doNotReconnect, neverEstablished, self.endpointCount > 1 {
            self.refusalsInARow += 1
            if self.refusalsInARow < self.endpointCount { policy = .reconnectWithBackoff(minimumDelay: .zero) }
        }
        var next = previous
        next.attempt += 1
        let delay: Duration
        switch policy {
        case .doNotReconnect:
            self.state = .idle
            return actions + self.publish(.failed(cause))
        case .reconnectImmediately:
            next.reconnectedImmediately = true
            delay = .zero
        case .reconnectWithBackoff(let minimumDelay):
            next.streak += 1
            delay = max(minimumDelay, self.configuration.backoff.delay(forAttempt: next.streak, random: random))
        }
        if let maximum = self.configuration.backoff.maximumAttempts, next.attempt > maximum {
            self.state = .idle
            let error = PusherError(
                .reconnectAttemptsExhausted,
                "gave up after \(maximum) reconnection attempts; last: \(cause.message)",
                closeCode: cause.closeCode,
                cause: cause
            )
            return actions + self.publish(.failed(error))
        }
        actions += self.publish(.reconnecting(attempt: next.attempt, delay: delay, cause: cause))
        if delay == .zero {
            return actions + self.open(next, at: now)
        }
        next.generation = self.nextGeneration
        self.nextGeneration = self.nextGeneration.next
        self.state = .waiting(next)
        return actions + [.scheduleTimer(.reconnect(next.generation), deadline: now + delay)]
    }

    func finishedIfDone() -> [Action] {
        if case .stopped = self.state, self.closing.isEmpty { return [.finished] }
        return []
    }

    mutating func publish(_ state: ConnectionState) -> [Action] {
        guard state != self.publicState else { return [] }
        self.publicState = state
        return [.publishState(state)]
    }
}
