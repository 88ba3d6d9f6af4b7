// SPDX-License-Identifier: MIT

/// The connection lifecycle as a pure state machine: connect, handshake, liveness, close-code
/// handling and reconnection.
///
/// It performs no I/O and reads no clock. The driver feeds it events (each carrying the current
/// time as an offset from an arbitrary origin, and for events that may back off a uniform random
/// sample) and performs the ``Action``s it returns. Every connection attempt gets a new
/// *generation* number; events about an older generation are ignored, so a late callback from a
/// socket that was already replaced can never disturb the current one.
///
/// Timers are of two kinds:
/// - the reconnect delay, requested with ``Action/startReconnectTimer(generation:delay:)`` and
///   cancelled with ``Action/cancelReconnectTimer(generation:)``;
/// - a per-connection *watchdog* the driver runs while a socket exists. It calls
///   ``watchdogFired(generation:at:random:)`` and sleeps for as long as the answer says. The
///   watchdog covers the handshake timeout, the activity timeout (ping), the pong timeout and the
///   close timeout.
package struct ConnectionStateMachine: Sendable {
    private struct Attempt: Sendable {
        var generation: Int
        /// Reconnection attempts since the last successful connection (0 for a fresh connect).
        var attempt: Int
        /// Exponent of the backoff: like `attempt`, but an immediate reconnect does not advance it.
        var streak: Int
        /// Whether the immediate reconnect (42xx, pong timeout) was used since the last healthy
        /// connection: a second one in a row backs off instead, so a server that keeps asking
        /// for one cannot make the client reconnect in a tight loop.
        var reconnectedImmediately = false
    }

    private enum State: Sendable {
        case idle
        case connecting(Attempt, startedAt: Duration, socketOpen: Bool, established: Established?)
        case connected(Attempt, socketID: String, activityTimeout: Duration, pingSentAt: Duration?, since: Duration)
        case waiting(Attempt)
        case stopped
    }

    private struct Established: Sendable {
        var socketID: String
        var activityTimeout: Duration?
    }

    package let configuration: Configuration
    private var state: State = .idle
    package private(set) var publicState: ConnectionState = .initialized
    private var nextGeneration = 1
    /// Sockets the client closed and is waiting on, with the time the close started.
    private var closing: [Int: Duration] = [:]
    /// When the last message arrived on the current socket.
    private var lastActivity: Duration = .zero
    /// Whether the current connection delivered a channel event (which, with the settle time,
    /// proves it healthy).
    private var deliveredChannelEvent = false
    /// The socket the client is dropping for a protocol violation, and the violation: it becomes
    /// the cause of the reconnection once the socket is gone.
    private var violation: (generation: Int, cause: PusherError)?

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The generation whose messages count: the socket being connected or connected.
    package var activeGeneration: Int? {
        switch self.state {
        case .connecting(let attempt, _, _, _), .connected(let attempt, _, _, _, _): attempt.generation
        case .idle, .waiting, .stopped: nil
        }
    }

    /// Whether `generation` is the active socket or one the client is closing (whose last events
    /// still reach their consumers).
    package func isLive(_ generation: Int) -> Bool {
        generation == self.activeGeneration || self.closing[generation] != nil
    }

    /// The generation of the ready connection, if there is one.
    package var readyGeneration: Int? {
        if case .connected(let attempt, _, _, _, _) = self.state { return attempt.generation }
        return nil
    }

    // MARK: Requests

    /// Connect now. From `waiting` the pending delay is skipped; from idle (initialized,
    /// disconnected or failed) the attempt counter starts afresh.
    package mutating func connect(at now: Duration) -> [Action] {
        switch self.state {
        case .idle:
            return self.open(Attempt(generation: 0, attempt: 0, streak: 0), at: now)
        case .waiting(let attempt):
            return [.cancelReconnectTimer(generation: attempt.generation)] + self.open(attempt, at: now)
        case .connecting, .connected, .stopped:
            return []
        }
    }

    /// Disconnect on request: cancels a pending reconnect, closes the socket, and stays idle.
    package mutating func disconnect(at now: Duration) -> [Action] {
        var actions = self.tearDown(at: now)
        if case .stopped = self.state { return actions }
        self.state = .idle
        actions += self.publish(.disconnected)
        return actions
    }

    /// Stop for good (the end of `run()`): like ``disconnect(at:)``, then ``Action/finished`` once no
    /// socket is left.
    package mutating func shutdown(at now: Duration) -> [Action] {
        var actions = self.tearDown(at: now)
        if case .stopped = self.state { return actions }
        self.state = .stopped
        actions += self.publish(.disconnected)
        if self.closing.isEmpty { actions.append(.finished) }
        return actions
    }

    private mutating func tearDown(at now: Duration) -> [Action] {
        switch self.state {
        case .idle, .stopped:
            return []
        case .waiting(let attempt):
            return [.cancelReconnectTimer(generation: attempt.generation)]
        case .connecting(let attempt, _, let socketOpen, _):
            self.closing[attempt.generation] = now
            // A socket still in its TCP, TLS or WebSocket handshake has no close handshake to wait for.
            let close: Action =
                socketOpen
                ? .closeConnection(generation: attempt.generation) : .abortConnection(generation: attempt.generation)
            return [close, .rearmWatchdog(generation: attempt.generation)]
        case .connected(let attempt, _, _, _, _):
            self.closing[attempt.generation] = now
            return [
                .connectionLost, .closeConnection(generation: attempt.generation),
                .rearmWatchdog(generation: attempt.generation),
            ]
        }
    }

    // MARK: Socket events

    package mutating func transportOpened(generation: Int, at now: Duration) -> [Action] {
        guard case .connecting(let attempt, let startedAt, false, let established) = self.state,
            attempt.generation == generation
        else { return [] }
        self.state = .connecting(attempt, startedAt: startedAt, socketOpen: true, established: established)
        if let established { return self.becomeConnected(attempt, established, at: now) }
        return []
    }

    /// Any message arrived on `generation`'s socket. Call for every message; it is cheap.
    @inline(__always)
    package mutating func messageReceived(at now: Duration) {
        self.lastActivity = now
    }

    /// A channel event of a channel the server confirmed reached its consumers on the active
    /// socket. Once the connection has also stayed up for ``Backoff/settleTime`` it counts as healthy,
    /// and the backoff starts afresh after it ends. Cheap enough to call per event.
    @inline(__always)
    package mutating func channelEventReceived() {
        if !self.deliveredChannelEvent { self.deliveredChannelEvent = true }
    }

    /// Whether the active connection has delivered a channel event already (callers skip the work
    /// of finding out again).
    package var hasDeliveredChannelEvent: Bool { self.deliveredChannelEvent }

    /// The options cannot form a connection (an invalid key, host, port or path): fail at once,
    /// without a socket and without retries.
    package mutating func configurationInvalid(_ error: PusherError, at now: Duration) -> [Action] {
        var actions = self.tearDown(at: now)
        if case .stopped = self.state { return actions }
        self.state = .idle
        actions += self.publish(.failed(error))
        return actions
    }

    /// `pusher:connection_established` arrived. `activityTimeout` is the server's value, if sent.
    package mutating func connectionEstablished(
        generation: Int,
        socketID: String,
        activityTimeout: Duration?,
        at now: Duration
    ) -> [Action] {
        let established = Established(socketID: socketID, activityTimeout: activityTimeout)
        switch self.state {
        case .connecting(let attempt, let startedAt, let socketOpen, _) where attempt.generation == generation:
            guard socketOpen else {
                self.state = .connecting(attempt, startedAt: startedAt, socketOpen: false, established: established)
                return []
            }
            return self.becomeConnected(attempt, established, at: now)
        default:
            // A second handshake on a connected socket is ignored (the engine reports it): taking
            // it would authorize every channel again on the server's word.
            return []
        }
    }

    /// The server broke the protocol on the socket of `generation` (for example a `socket_id` that
    /// is not `digits.digits`): the socket is dropped, and once it is gone the client reconnects with
    /// the backoff, `error` being the cause. Nothing more of that socket is handled meanwhile.
    package mutating func protocolViolation(generation: Int, error: PusherError) -> [Action] {
        guard self.activeGeneration == generation, self.violation == nil else { return [] }
        self.violation = (generation, error)
        return [.abortConnection(generation: generation)]
    }

    /// Whether the socket of `generation` is being dropped for a protocol violation.
    package func isDropping(_ generation: Int) -> Bool { self.violation?.generation == generation }

    /// Whether `generation` is connected already (a `connection_established` for it is a duplicate).
    package func isConnected(_ generation: Int) -> Bool { self.readyGeneration == generation }

    /// Check the connection now (the network changed, the app came back to the foreground): send a
    /// ping at once and expect an answer within the pong timeout. Does nothing unless connected or
    /// when a ping is already outstanding.
    package mutating func checkConnection(at now: Duration) -> [Action] {
        guard case .connected(let attempt, let socketID, let activityTimeout, nil, let since) = self.state else {
            return []
        }
        self.state = .connected(
            attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: now, since: since)
        return [
            .send(generation: attempt.generation, text: OutboundMessage.ping),
            .rearmWatchdog(generation: attempt.generation),
        ]
    }

    /// A `pusher:ping` arrived: answer it.
    package func pingReceived(generation: Int) -> [Action] {
        guard self.activeGeneration == generation else { return [] }
        return [.send(generation: generation, text: OutboundMessage.pong)]
    }

    /// The socket of `generation` closed. `closeCode` is nil when no close frame was received.
    package mutating func transportClosed(
        generation: Int,
        closeCode: Int?,
        reason: String?,
        at now: Duration,
        random: Double
    ) -> [Action] {
        let cause: PusherError
        if let closeCode {
            let text = reason.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
            cause = PusherError(.connectionClosed, "server closed the connection\(text)", closeCode: closeCode)
        } else {
            cause = PusherError(.connectionClosed, "connection closed without a close frame", closeCode: 1006)
        }
        return self.connectionEnded(generation: generation, cause: cause, at: now, random: random)
    }

    /// The socket of `generation` could not be opened or failed.
    package mutating func transportFailed(
        generation: Int,
        error: PusherError,
        at now: Duration,
        random: Double
    ) -> [Action] {
        self.connectionEnded(generation: generation, cause: error, at: now, random: random)
    }

    package mutating func reconnectTimerFired(generation: Int, at now: Duration) -> [Action] {
        guard case .waiting(let attempt) = self.state, attempt.generation == generation else { return [] }
        return self.open(attempt, at: now)
    }

    // MARK: Watchdog

    /// The watchdog of `generation` woke up (or is starting). Returns how long it sleeps next and
    /// what to do now.
    package mutating func watchdogFired(
        generation: Int,
        at now: Duration,
        random: Double
    ) -> (WatchdogDecision, [Action]) {
        if let closeStarted = self.closing[generation] {
            let elapsed = now - closeStarted
            if elapsed >= self.configuration.closeTimeout {
                self.closing[generation] = nil
                return (.stop, [.abortConnection(generation: generation)] + self.finishedIfDone())
            }
            return (.sleep(self.configuration.closeTimeout - elapsed), [])
        }
        switch self.state {
        case .connecting(let attempt, let startedAt, _, _) where attempt.generation == generation:
            let elapsed = now - startedAt
            guard elapsed >= self.configuration.handshakeTimeout else {
                return (.sleep(self.configuration.handshakeTimeout - elapsed), [])
            }
            let cause = PusherError(
                .handshakeTimeout, "no pusher:connection_established within \(self.configuration.handshakeTimeout)")
            let actions =
                [Action.abortConnection(generation: generation)]
                + self.connectionEnded(generation: generation, cause: cause, at: now, random: random)
            return (.stop, actions)

        case .connected(let attempt, let socketID, let activityTimeout, let pingSentAt, let since)
        where attempt.generation == generation:
            if let pingSentAt, self.lastActivity < pingSentAt {
                let waited = now - pingSentAt
                guard waited >= self.configuration.pongTimeout else {
                    return (.sleep(self.configuration.pongTimeout - waited), [])
                }
                let cause = PusherError(.pongTimeout, "no reply to ping within \(self.configuration.pongTimeout)")
                let actions =
                    [Action.abortConnection(generation: generation)]
                    + self.connectionEnded(generation: generation, cause: cause, at: now, random: random)
                return (.stop, actions)
            }
            let idle = now - self.lastActivity
            guard idle >= activityTimeout else {
                if pingSentAt != nil {
                    self.state = .connected(
                        attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: nil, since: since)
                }
                return (.sleep(activityTimeout - idle), [])
            }
            self.state = .connected(
                attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: now, since: since)
            return (.sleep(self.configuration.pongTimeout), [.send(generation: generation, text: OutboundMessage.ping)])

        default:
            return (.stop, [])
        }
    }

    // MARK: Internals

    private mutating func open(_ previous: Attempt, at now: Duration) -> [Action] {
        var attempt = previous
        attempt.generation = self.nextGeneration
        self.nextGeneration += 1
        self.lastActivity = now
        self.state = .connecting(attempt, startedAt: now, socketOpen: false, established: nil)
        return [.openConnection(generation: attempt.generation)] + self.publish(.connecting(attempt: attempt.attempt))
    }

    private mutating func becomeConnected(_ attempt: Attempt, _ established: Established, at now: Duration) -> [Action]
    {
        var timeout = self.configuration.activityTimeout
        if let server = established.activityTimeout, server > .zero, server < timeout { timeout = server }
        self.lastActivity = now
        self.deliveredChannelEvent = false
        // The counters are kept until the connection proves healthy (see `connectionEnded`): a
        // server that completes the handshake and closes at once must still meet the backoff.
        self.state = .connected(
            attempt, socketID: established.socketID, activityTimeout: timeout, pingSentAt: nil, since: now)
        return self.publish(.connected(socketID: established.socketID))
            + [.connectionReady(socketID: established.socketID), .rearmWatchdog(generation: attempt.generation)]
    }

    private mutating func connectionEnded(
        generation: Int,
        cause reported: PusherError,
        at now: Duration,
        random: Double
    ) -> [Action] {
        var cause = reported
        if let violation = self.violation, violation.generation == generation {
            self.violation = nil
            cause = violation.cause
        }
        if self.closing.removeValue(forKey: generation) != nil { return self.finishedIfDone() }
        var actions: [Action] = []
        let previous: Attempt
        switch self.state {
        case .connecting(let attempt, _, _, _) where attempt.generation == generation:
            previous = attempt
        case .connected(let attempt, _, _, _, let since) where attempt.generation == generation:
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
        self.nextGeneration += 1
        self.state = .waiting(next)
        return actions + [.startReconnectTimer(generation: next.generation, delay: delay)]
    }

    private func finishedIfDone() -> [Action] {
        if case .stopped = self.state, self.closing.isEmpty { return [.finished] }
        return []
    }

    private mutating func publish(_ state: ConnectionState) -> [Action] {
        guard state != self.publicState else { return [] }
        self.publicState = state
        return [.publishState(state)]
    }
}
