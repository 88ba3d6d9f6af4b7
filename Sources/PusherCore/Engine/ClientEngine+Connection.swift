// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Connect now (see ``ConnectionStateMachine/connect(at:)``).
    package mutating func connect(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.connect(at: now))
    }

    /// The options cannot form a connection: the state becomes `failed(error)` with no retries.
    /// Every call reports the error, even when the state was `failed` with it already.
    package mutating func configurationInvalid(_ error: PusherError, at now: Duration) -> [Action] {
        self.now = now
        var actions = self.apply(self.connection.configurationInvalid(error, at: now))
        if !actions.contains(.report(error)) { actions.append(.report(error)) }
        return actions
    }

    /// Close the connection and cancel any pending reconnection; subscriptions are kept.
    package mutating func disconnect(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.disconnect(at: now))
    }

    /// Ping at once and drop the socket if nothing answers within the pong timeout.
    package mutating func checkConnection(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.checkConnection(at: now))
    }

    /// Stop for good: close the socket gracefully, then ``Action/finished``.
    package mutating func shutdown(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.shutdown(at: now))
    }

    /// The run ended: every consumer is finished and forgotten, nothing is subscribed any more, the
    /// final state is published.
    package mutating func runEnded(at now: Duration) -> [Action] {
        var actions: [Action] = []
        // The socket is gone with the run (a cancelled run never hears it close).
        self.subscriptions.disconnected(lastKnownAlive: now)
        for action in self.connection.shutdown(at: now) {
            if case .publishState = action { actions.append(contentsOf: self.apply([action])) }
        }
        self.isFinished = true
        for id in self.consumers.removeAll() { actions.append(.finishConsumer(id, error: nil)) }
        return actions
    }

    /// The driver stopped reading the socket of `generation` because a consumer is behind (see
    /// ``ConnectionStateMachine/inboundPaused(generation:)``).
    package mutating func inboundPaused(generation: Generation) {
        self.connection.inboundPaused(generation: generation)
    }

    /// The driver reads the socket of `generation` again.
    package mutating func inboundResumed(generation: Generation, at now: Duration) {
        self.now = now
        self.connection.inboundResumed(generation: generation, at: now)
    }

    package mutating func transportOpened(generation: Generation, at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.transportOpened(generation: generation, at: now))
    }

    /// The socket of `generation` closed, with the server's close frame if one came.
    package mutating func transportClosed(
        generation: Generation, closeCode: Int?, reason: String?, at now: Duration, random: Double
    ) -> [Action] {
        self.now = now
        return self.apply(
            self.connection.transportClosed(
                generation: generation, closeCode: closeCode, reason: reason, at: now, random: random))
    }

    /// The client closed the socket of `generation` with 1009 because the server sent a message over
    /// `limit` bytes: reported as `messageTooLarge` naming the limit, then reconnected with the backoff.
    package mutating func messageTooLarge(generation: Generation, limit: Int, at now: Duration, random: Double)
        -> [Action]
    {
        self.now = now
        let error = PusherError(
            .messageTooLarge,
            "the server sent a message larger than the limit of \(limit) bytes (maximumMessageSize); the client closed the connection with 1009",
            closeCode: 1009
        )
        return self.apply(
            self.connection.transportFailed(generation: generation, error: error, at: now, random: random))
    }

    /// The socket of `generation` could not be opened or broke.
    package mutating func transportFailed(
        generation: Generation, error: PusherError, at now: Duration, random: Double
    ) -> [Action] {
        self.now = now
        return self.apply(
            self.connection.transportFailed(generation: generation, error: error, at: now, random: random))
    }

    /// Translates the connection machine's actions, running what a ready or lost connection means
    /// for subscriptions, keys, sign-in and provided authorizations.
    mutating func apply(_ connectionActions: [ConnectionStateMachine.Action]) -> [Action] {
        var actions: [Action] = []
        for action in connectionActions {
            switch action {
            case .openConnection(let generation): actions.append(.openConnection(generation: generation))
            case .send(let generation, let text): actions.append(.send(generation: generation, text: text))
            case .closeConnection(let generation): actions.append(.closeConnection(generation: generation))
            case .abortConnection(let generation): actions.append(.abortConnection(generation: generation))
            case .scheduleTimer(let timer, let deadline): actions.append(.scheduleTimer(timer, deadline: deadline))
            case .cancelTimer(let timer): actions.append(.cancelTimer(timer))
            case .publishState(let state):
                actions.append(.publishState(state))
                switch state {
                case .reconnecting(_, _, let cause), .failed(let cause): actions.append(.report(cause))
                default: break
                }
            case .connectionReady(let socketID):
                self.apply(self.signInMachine.connected(socketID: socketID), into: &actions)
                self.resubscribe(socketID: socketID, into: &actions)
            case .connectionLost:
                self.subscriptionsLost(into: &actions)
                self.apply(self.signInMachine.disconnected(), into: &actions)
                // Nothing can be sent before channels are subscribed again.
                self.clientEventsConnectionLost(into: &actions)
            case .finished:
                actions.append(.finished)
            }
        }
        return actions
    }

    /// Sends `text` on the ready connection, if there is one.
    func sendOnReadyConnection(_ text: String, into actions: inout [Action]) {
        guard let generation = self.connection.readyGeneration else { return }
        actions.append(.send(generation: generation, text: text))
    }
}
