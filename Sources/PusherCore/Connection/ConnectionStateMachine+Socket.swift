// SPDX-License-Identifier: MIT

// What happens on the socket: it opens, the handshake arrives, messages arrive, it closes or fails.
extension ConnectionStateMachine {
    package mutating func transportOpened(generation: Generation, at now: Duration) -> [Action] {
        guard case .connecting(let attempt, let startedAt, false, let established) = self.state,
            attempt.generation == generation
        else { return [] }
        self.state = .connecting(attempt, startedAt: startedAt, socketOpen: true, established: established)
        if let established { return self.becomeConnected(attempt, established, at: now) }
        return []
    }

    /// Any message arrived on the active socket. Call for every batch; it is cheap (the activity
    /// timer is not moved: it looks at this time when it fires).
    @inline(__always)
    package mutating func messageReceived(at now: Duration) {
        self.lastActivity = now
    }

    /// The client stopped reading the socket of `generation` until its consumers catch up (flow
    /// control). Until ``inboundResumed(generation:at:)``, the activity and pong timeouts do not end
    /// the connection (whatever the server sent waits unread, its pongs included); a ping still
    /// goes out every activity timeout, so the server does not take the client for gone. Only the
    /// active socket pauses: one paused socket at a time.
    package mutating func inboundPaused(generation: Generation) {
        self.pausedGeneration = generation
    }

    /// The client reads the socket of `generation` again: its silence counts from now.
    package mutating func inboundResumed(generation: Generation, at now: Duration) {
        guard self.pausedGeneration == generation else { return }
        self.pausedGeneration = nil
        if generation == self.activeGeneration { self.lastActivity = max(self.lastActivity, now) }
    }

    /// A channel event of a channel the server confirmed reached its consumers on the active
    /// socket. Once the connection has also stayed up for ``Backoff/settleTime`` it counts as healthy,
    /// and the backoff starts afresh after it ends. Cheap enough to call per event.
    @inline(__always)
    package mutating func channelEventReceived() {
        if !self.deliveredChannelEvent { self.deliveredChannelEvent = true }
    }

    /// `pusher:connection_established` arrived. `activityTimeout` is the server's value, if sent.
    package mutating func connectionEstablished(
        generation: Generation,
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
    package mutating func protocolViolation(generation: Generation, error: PusherError) -> [Action] {
        guard self.activeGeneration == generation, self.violation == nil else { return [] }
        self.violation = (generation, error)
        return [.abortConnection(generation: generation)]
    }

    /// A `pusher:ping` arrived: answer it.
    package func pingReceived(generation: Generation) -> [Action] {
        guard self.activeGeneration == generation else { return [] }
        return [.send(generation: generation, text: OutboundMessage.pong)]
    }

    /// The socket of `generation` closed. `closeCode` is nil when no close frame was received.
    package mutating func transportClosed(
        generation: Generation,
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
        generation: Generation,
        error: PusherError,
        at now: Duration,
        random: Double
    ) -> [Action] {
        self.connectionEnded(generation: generation, cause: error, at: now, random: random)
    }

    private mutating func becomeConnected(_ attempt: Attempt, _ established: Established, at now: Duration) -> [Action]
    {
        var timeout = self.configuration.activityTimeout
        if let server = established.activityTimeout, server > .zero, server < timeout { timeout = server }
        self.lastActivity = now
        self.deliveredChannelEvent = false
        self.refusalsInARow = 0
        // The counters are kept until the connection proves healthy (see `connectionEnded`): a
        // server that completes the handshake and closes at once must still meet the backoff.
        self.state = .connected(
            attempt, socketID: established.socketID, activityTimeout: timeout, pingSentAt: nil, since: now)
        return self.publish(.connected(socketID: established.socketID))
            + [.connectionReady(socketID: established.socketID)]
            + self.scheduleLiveness(.activity(attempt.generation), deadline: now + timeout)
    }
}
