// SPDX-License-Identifier: MIT

/// The connection lifecycle as a pure state machine: connect, handshake, liveness, close-code
/// handling and reconnection.
///
/// It performs no I/O and reads no clock. The driver feeds it events (each carrying the current
/// time as an offset from an arbitrary origin, and for events that may back off a uniform random
/// sample) and performs the ``Action``s it returns. Every connection attempt gets a new
/// ``Generation``; events about an older generation are ignored, so a late callback from a socket
/// that was already replaced can never disturb the current one.
///
/// Its timers are requested like every other effect: ``Action/scheduleTimer(_:deadline:)`` and
/// ``Action/cancelTimer(_:)`` with a ``TimerID``, answered with ``timerFired(_:at:random:)``. The
/// active socket has at most one liveness timer at a time: ``TimerID/handshake(_:)`` until
/// `pusher:connection_established`, then ``TimerID/activity(_:)`` (ping after silence) or
/// ``TimerID/pong(_:)`` (a ping is unanswered). A socket the client closes has
/// ``TimerID/close(_:)``; the delay before the next attempt is ``TimerID/reconnect(_:)``. The
/// activity deadline is not moved per message: when it fires early, the machine schedules it again
/// from the last message's time.
package struct ConnectionStateMachine: Sendable {
    struct Attempt: Sendable {
        var generation: Generation
        /// Reconnection attempts since the last successful connection (0 for a fresh connect).
        var attempt: Int
        /// Exponent of the backoff: like `attempt`, but an immediate reconnect does not advance it.
        var streak: Int
        /// Whether the immediate reconnect (42xx, pong timeout) was used since the last healthy
        /// connection: a second one in a row backs off instead, so a server that keeps asking
        /// for one cannot make the client reconnect in a tight loop.
        var reconnectedImmediately = false
    }

    enum State: Sendable {
        case idle
        case connecting(Attempt, startedAt: Duration, socketOpen: Bool, established: Established?)
        case connected(Attempt, socketID: String, activityTimeout: Duration, pingSentAt: Duration?, since: Duration)
        case waiting(Attempt)
        case stopped
    }

    struct Established: Sendable {
        var socketID: String
        var activityTimeout: Duration?
    }

    /// Timeouts and backoff of the connection. The defaults are ``ClientDefaults``'.
    package struct Configuration: Sendable, Hashable {
        /// Inactivity after which the client pings; the server's `activity_timeout` lowers it.
        package var activityTimeout: Duration
        /// How long to wait for any message after a ping before dropping the socket.
        package var pongTimeout: Duration
        /// How long the socket may take to open and deliver `pusher:connection_established`.
        package var handshakeTimeout: Duration
        /// How long a socket the client closed may take to finish the close handshake.
        package var closeTimeout: Duration
        package var backoff: Backoff

        package init(
            activityTimeout: Duration = ClientDefaults.activityTimeout,
            pongTimeout: Duration = ClientDefaults.pongTimeout,
            handshakeTimeout: Duration = ClientDefaults.handshakeTimeout,
            closeTimeout: Duration = ClientDefaults.closeTimeout,
            backoff: Backoff = Backoff()
        ) {
            self.activityTimeout = activityTimeout
            self.pongTimeout = pongTimeout
            self.handshakeTimeout = handshakeTimeout
            self.closeTimeout = closeTimeout
            self.backoff = backoff
        }
    }

    package enum Action: Sendable, Hashable {
        /// Open a socket for `generation`.
        case openConnection(generation: Generation)
        /// Send a text frame on the socket of `generation`.
        case send(generation: Generation, text: String)
        /// Start the close handshake (normal closure) on `generation`.
        case closeConnection(generation: Generation)
        /// Drop the socket of `generation` at once, without a handshake.
        case abortConnection(generation: Generation)
        /// Fire `timer` at `deadline` (an offset on the clock of the `at:` inputs), replacing its
        /// earlier deadline if it has one.
        case scheduleTimer(TimerID, deadline: Duration)
        /// `timer` must not fire.
        case cancelTimer(TimerID)
        /// The package state changed.
        case publishState(ConnectionState)
        /// The connection is ready: (re)subscribe channels.
        case connectionReady(socketID: String)
        /// The ready connection is gone: subscriptions must wait for the next one.
        case connectionLost
        /// The run can end: the machine is stopped and owns no socket.
        case finished
    }

    package let configuration: Configuration
    var state: State = .idle
    package internal(set) var publicState: ConnectionState = .initialized
    var nextGeneration: Generation = 1
    /// Sockets the client closed and is waiting on, with the time the close started; each has its
    /// ``TimerID/close(_:)`` timer.
    var closing: [Generation: Duration] = [:]
    /// When the last message arrived on the current socket.
    var lastActivity: Duration = .zero
    /// Whether the current connection delivered a channel event (which, with the settle time,
    /// proves it healthy).
    var deliveredChannelEvent = false
    /// The socket the client is dropping for a protocol violation, and the violation: it becomes
    /// the cause of the reconnection once the socket is gone.
    var violation: (generation: Generation, cause: PusherError)?
    /// The liveness timer of the active socket (handshake, activity or pong) while one is scheduled.
    var livenessTimer: TimerID?
    /// The socket the client stopped reading because a consumer is behind (flow control): its
    /// silence is the client's own doing, so it is not taken for a dead connection.
    var pausedGeneration: Generation?
    /// How many endpoints the client tries in turn (its endpoint and fallbacks; see
    /// ``endpointsChanged(count:)``). With more than one, a close code 4000–4099 before
    /// `pusher:connection_established` moves on to the next endpoint instead of failing for good.
    package internal(set) var endpointCount = 1
    /// Attempts in a row that the server refused with a close code 4000–4099 before
    /// `pusher:connection_established`: once every endpoint has, the client stops.
    var refusalsInARow = 0

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    // MARK: Reading

    /// The generation whose messages count: the socket being connected or connected.
    package var activeGeneration: Generation? {
        switch self.state {
        case .connecting(let attempt, _, _, _), .connected(let attempt, _, _, _, _): attempt.generation
        case .idle, .waiting, .stopped: nil
        }
    }

    /// Whether `generation` is the active socket or one the client is closing (whose last events
    /// still reach their consumers).
    package func isLive(_ generation: Generation) -> Bool {
        generation == self.activeGeneration || self.closing[generation] != nil
    }

    /// The generation of the ready connection, if there is one.
    package var readyGeneration: Generation? {
        if case .connected(let attempt, _, _, _, _) = self.state { return attempt.generation }
        return nil
    }

    /// Whether the socket of `generation` is being dropped for a protocol violation.
    package func isDropping(_ generation: Generation) -> Bool { self.violation?.generation == generation }

    /// Whether `generation` is connected already (a `connection_established` for it is a duplicate).
    package func isConnected(_ generation: Generation) -> Bool { self.readyGeneration == generation }

    /// Whether the active connection has delivered a channel event already (callers skip the work
    /// of finding out again).
    package var hasDeliveredChannelEvent: Bool { self.deliveredChannelEvent }

    // MARK: Requests

    /// Connect now. From `waiting` the pending delay is skipped; from idle (initialized,
    /// disconnected or failed) the attempt counter starts afresh.
    package mutating func connect(at now: Duration) -> [Action] {
        self.refusalsInARow = 0
        switch self.state {
        case .idle:
            return self.open(Attempt(generation: 0, attempt: 0, streak: 0), at: now)
        case .waiting(let attempt):
            return [.cancelTimer(.reconnect(attempt.generation))] + self.open(attempt, at: now)
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

    /// The options cannot form a connection (an invalid key, host, port or path): fail at once,
    /// without a socket and without retries.
    package mutating func configurationInvalid(_ error: PusherError, at now: Duration) -> [Action] {
        var actions = self.tearDown(at: now)
        if case .stopped = self.state { return actions }
        self.state = .idle
        actions += self.publish(.failed(error))
        return actions
    }

    /// Check the connection now (the network changed, the app came back to the foreground): send a
    /// ping at once and expect an answer within the pong timeout. Does nothing unless connected or
    /// when a ping is already outstanding.
    package mutating func checkConnection(at now: Duration) -> [Action] {
        guard case .connected(let attempt, let socketID, let activityTimeout, nil, let since) = self.state else {
            return []
        }
        self.state = .connected(
            attempt, socketID: socketID, activityTimeout: activityTimeout, pingSentAt: now, since: since)
        return [.send(generation: attempt.generation, text: OutboundMessage.ping)]
            + self.scheduleLiveness(.pong(attempt.generation), deadline: now + self.configuration.pongTimeout)
    }

    /// Closes (or, still in its handshake, drops) the active socket with a close timeout, or cancels
    /// the pending reconnect.
    mutating func tearDown(at now: Duration) -> [Action] {
        switch self.state {
        case .idle, .stopped:
            return []
        case .waiting(let attempt):
            return [.cancelTimer(.reconnect(attempt.generation))]
        case .connecting(let attempt, _, let socketOpen, _):
            // A socket still in its TCP, TLS or WebSocket handshake has no close handshake to wait for.
            let close: Action =
                socketOpen
                ? .closeConnection(generation: attempt.generation) : .abortConnection(generation: attempt.generation)
            return [close] + self.startClosing(attempt.generation, at: now)
        case .connected(let attempt, _, _, _, _):
            return [.connectionLost, .closeConnection(generation: attempt.generation)]
                + self.startClosing(attempt.generation, at: now)
        }
    }

    private mutating func startClosing(_ generation: Generation, at now: Duration) -> [Action] {
        self.closing[generation] = now
        return self.cancelLivenessTimer() + [
            .scheduleTimer(.close(generation), deadline: now + self.configuration.closeTimeout)
        ]
    }
}

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
