// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension ClientDriver {
    /// Performs the engine's actions, in order. The only place where the engine's decisions turn
    /// into I/O: socket writes and closes (queued on their event loops), child tasks (asked of the
    /// run loop), consumer buffers, notifications. Nothing here suspends or takes the engine lock,
    /// and no user code runs: log lines, metrics and spans are gathered, told after the unlock.
    mutating func perform(_ actions: [ClientEngine.Action]) {
        // Consumers with staged events (handed over once each, after the batch) and consumers to forget.
        var staged = self.stagedBuffer
        self.stagedBuffer = []
        staged.removeAll(keepingCapacity: true)
        var failed: [ConsumerID] = []
        // The consumer of the latest delivery: a batch's events mostly go to the same consumers.
        var recent: Consumer<ChannelEvent>?
        // Whether the number of confirmed subscriptions may have changed (for the metrics gauge).
        var subscriptionsChanged = false
        // Whether client events went out or their channels changed: callers waiting for room look again.
        var clientEventsMoved = false
        for action in actions {
            switch action {
            case .deliver(let event, let id):
                let consumer: Consumer<ChannelEvent>
                if let recent, recent.id == id {
                    consumer = recent
                } else {
                    guard let found = self.registry.events[id] else { continue }
                    consumer = found
                    recent = found
                }
                consumer.stage(event, into: &staged)
            case .deliverPresence(let change, let id):
                guard let buffer = self.registry.presence[id] else { continue }
                var tally = DeliveryTally()
                if !buffer.deliver(contentsOf: CollectionOfOne(change), tally: &tally) { failed.append(id) }
                self.logBackPressure(tally, channel: buffer.channel)
                // Presence changes are not events: only a failed consumer is counted.
                self.metrics?.handedOver(DeliveryTally(consumersFailed: tally.consumersFailed), channel: buffer.channel)
            case .finishConsumer(let id, let error):
                recent = nil
                if let consumer = self.registry.removeConsumer(id, finishing: error) {
                    // Its staged events go first, counted like any batch; it is finished anyway.
                    var gone: [ConsumerID] = []
                    self.handOver([consumer], failed: &gone)
                    consumer.finish(throwing: error)
                }
            case .consumersChanged(let channel):
                let name = channel?.rawValue ?? ClientEngine.userEventsChannel
                // Only a channel's last consumer leaving unsubscribes it.
                if self.metrics != nil, self.engine.consumerCount(on: name) == 0 { subscriptionsChanged = true }
                clientEventsMoved = true
                self.consumersChanged(on: name)
            case .openConnection(let generation):
                self.openConnection(generation: generation)
            case .send(let generation, let text):
                self.connections[generation]?.send(text)
                clientEventsMoved = true
            case .closeConnection(let generation):
                // A socket paused at the flow gate reads on, so that the close completes.
                let gate = self.flowGate
                self.connections[generation]?.close(gate: gate)
            case .abortConnection(let generation):
                self.connections[generation]?.abort()
            case .scheduleTimer(let timer, let deadline):
                self.scheduleTimer(timer, at: deadline)
            case .cancelTimer(let timer):
                self.cancelTimer(timer)
            case .authorize(let channel, let socketID):
                self.log(.debug, "authorizing", ["pusher.channel": "\(channel)"])
                let cancel = self.startCall(.authorization(channel: channel, socketID: socketID))
                self.commands.yield(.authorize(channel: channel.rawValue, socketID: socketID, cancel: cancel))
            case .reloadKey(let channel, let socketID):
                self.log(.debug, "reloading the key of an encrypted channel", ["pusher.channel": "\(channel)"])
                self.metrics?.keyReloadStarted(channel: channel.rawValue)
                let cancel = self.startCall(.keyReload(channel: channel, socketID: socketID))
                self.commands.yield(.reloadKey(channel: channel.rawValue, socketID: socketID, cancel: cancel))
            case .authenticateUser(let socketID):
                self.log(.debug, "authenticating the user")
                let cancel = self.startCall(.userAuthentication(socketID: socketID))
                self.commands.yield(.authenticateUser(socketID: socketID, cancel: cancel))
            case .cancelCall(let timer, let reason, let call):
                self.cancelCall(timer, reason: reason, call: call)
            case .publishState(let state):
                self.endpointRotation?.stateChanged(state)
                self.logStateChange(state)
                subscriptionsChanged = true
                self.metrics?.stateChanged(to: state)
                self.endConnectionSpans(state: state)
                self.publishedState = state
                self.publishedEndpoint = self.currentEndpoint
                self.notified(self.registry.publish(state, endpoint: self.currentEndpoint))
            case .publishUser(let state):
                self.log(.debug, "user state changed", ["pusher.user_state": "\(state)"])
                if state != self.publishedUser {
                    self.publishedUser = state
                    self.notified(self.registry.publish(state))
                }
            case .report(let error):
                self.log(
                    .debug, "error",
                    [
                        "pusher.error": "\(error.code)",
                        "pusher.close_code": "\(error.closeCode.map(String.init) ?? "-")",
                    ])
                self.notified(self.registry.report(error))
            case .reportDecryptionFailure(let failure):
                self.log(
                    .debug, "decryption failed",
                    ["pusher.channel": "\(failure.channel)", "pusher.event": "\(failure.event)"])
                self.metrics?.decryptionFailed(failure)
                self.notified(self.registry.report(failure))
            case .notifySubscription(let event):
                subscriptionsChanged = true
                switch event {
                case .succeeded(let channel, let isResubscription, _):
                    self.log(
                        .debug, "subscribed",
                        ["pusher.channel": "\(channel)", "pusher.resubscription": "\(isResubscription)"])
                case .failed(let channel, _):
                    self.log(.debug, "subscription failed", ["pusher.channel": "\(channel)"])
                }
                self.notified(self.registry.notify(event))
            case .notifySubscriptionCount(let count, let channel):
                self.notified(self.registry.notifyCount(count, channel: channel.rawValue))
            case .notifyWatchlist(let event):
                self.notified(self.registry.notify(event))
            case .finished:
                self.commands.yield(.finish)
            }
        }
        // One hand-over (one lock, one wake) per consumer per batch.
        self.handOver(staged, failed: &failed)
        staged.removeAll(keepingCapacity: true)
        self.stagedBuffer = staged
        if subscriptionsChanged { self.metrics?.subscriptionCount(self.engine.subscribedChannelCount) }
        if clientEventsMoved || subscriptionsChanged { self.clientEventRoomMayHaveChanged() }
        for id in failed { self.perform(self.engine.removeConsumer(id)) }
    }

    mutating func consumersChanged(on channel: String) {
        guard !self.consumerWaiters.isEmpty else { return }
        let count = self.consumerCount(on: channel)
        self.consumerWaiters.removeAll { waiter in
            guard waiter.channel == channel, waiter.count == count else { return false }
            waiter.signal.fire()
            return true
        }
    }

    // MARK: Delivery

    /// Hands the messages of one socket read to the engine and performs the outcome, on the
    /// socket's thread: each consumer gets the read's events under one lock, with one wake-up.
    ///
    /// - Returns: False when the socket must pause: a consumer is over its limits (`pauseReading`)
    ///   and this is the active socket (a socket being closed reads to its end, so that its close
    ///   completes). The flow gate resumes it when every such consumer has caught up.
    mutating func received(_ messages: [InboundMessage], generation: Generation) -> Bool {
        var actions = self.actionBuffer
        self.actionBuffer = []
        actions.removeAll(keepingCapacity: true)
        self.engine.received(messages[...], generation: generation, at: self.clock.now, into: &actions)
        self.perform(actions)
        actions.removeAll(keepingCapacity: true)
        self.actionBuffer = actions
        self.metrics?.received(total: self.engine.channelEventsReceived)
        return !self.pausesReading(generation)
    }

    /// Whether the socket of `generation` pauses at the flow gate now; if so, the gate keeps what
    /// resumes it, and the engine takes the socket's silence for the client's own doing.
    private mutating func pausesReading(_ generation: Generation) -> Bool {
        guard !self.flowGate.isOpen, self.engine.activeGeneration == generation,
            let connection = self.connections[generation]?.connection,
            self.connections[generation]?.isPaused == false
        else { return false }
        guard let pause = self.flowGate.pauseUnlessOpen({ connection.resumeReading() }) else { return false }
        self.connections[generation]?.pause = pause
        self.engine.inboundPaused(generation: generation)
        self.metrics?.readingPaused()
        return true
    }

    /// The socket of `generation` reads again after a pause.
    mutating func readingResumed(generation: Generation) {
        guard let pause = self.connections[generation]?.pause else { return }
        self.flowGate.cancelPause(pause)
        self.connections[generation]?.pause = nil
        self.engine.inboundResumed(generation: generation, at: self.clock.now)
    }

    /// Whether a socket's reading is paused at the flow gate now.
    var isReadingPaused: Bool { self.connections.values.contains { $0.isPaused } }

    /// The batch's hand-over to consumers (one lock and one wake-up each), counting what was
    /// delivered, dropped and failed: one counter increment per batch (per channel with channel
    /// labels), not per event. Appends the consumers that are gone or just failed to `failed`.
    mutating func handOver(_ staged: [Consumer<ChannelEvent>], failed: inout [ConsumerID]) {
        let labelled = self.metrics?.includesChannelLabel ?? false
        var total = DeliveryTally()
        for consumer in staged {
            var tally = DeliveryTally()
            if !consumer.flush(tally: &tally) { failed.append(consumer.id) }
            self.logBackPressure(tally, channel: consumer.channel)
            if labelled { self.metrics?.handedOver(tally, channel: consumer.channel) } else { total += tally }
        }
        if !labelled { self.metrics?.handedOver(total, channel: nil) }
    }

    /// What the notification consumers' policies did with one notification: reading paused, the
    /// oldest dropped at the ceiling, `dropOldest`/`dropNewest` drops, `fail`: logged and counted
    /// as for events (under the name `notifications`).
    mutating func notified(_ tally: DeliveryTally) {
        guard tally.dropped > 0 || tally.consumersFailed > 0 || tally.readingPaused > 0 else { return }
        self.logBackPressure(tally, channel: "notifications")
        self.metrics?.handedOver(
            DeliveryTally(dropped: tally.dropped, consumersFailed: tally.consumersFailed), channel: nil)
    }

    /// Logs consumers failed as too slow (`warning`) and events their policy dropped (`notice`),
    /// each one line per ``LogPacer/interval`` at most, counting what came since the previous line.
    /// Names the channel, never event contents.
    mutating func logBackPressure(_ tally: DeliveryTally, channel: String?) {
        guard self.logger != nil, tally.consumersFailed > 0 || tally.dropped > 0 || tally.readingPaused > 0 else {
            return
        }
        let channel = channel ?? ClientEngine.userEventsChannel
        if tally.consumersFailed > 0,
            let count = self.failedConsumersLog.count(tally.consumersFailed, at: self.clock.now)
        {
            self.log(
                .warning, "a consumer fell too far behind and was failed (consumerTooSlow)",
                ["pusher.channel": "\(channel)", "pusher.consumers_failed": "\(count)"])
        }
        if tally.readingPaused > 0, let count = self.pausedReadingLog.count(tally.readingPaused, at: self.clock.now) {
            self.log(
                .notice, "a consumer is behind: reading from the socket paused until it catches up",
                ["pusher.channel": "\(channel)", "pusher.pauses": "\(count)"])
        }
        if tally.dropped > 0, let count = self.droppedEventsLog.count(tally.dropped, at: self.clock.now) {
            self.log(
                .notice, "a consumer is behind: its buffering policy dropped events",
                ["pusher.channel": "\(channel)", "pusher.dropped": "\(count)"])
        }
    }

    /// Logs a new connection state: reconnections at `notice` (with the attempt, the delay and the
    /// cause's code), a connection that failed for good at `warning`, the rest at `debug`.
    private mutating func logStateChange(_ state: ConnectionState) {
        switch state {
        case .reconnecting(let attempt, let delay, let cause):
            self.log(
                .notice, "reconnecting",
                [
                    "pusher.attempt": "\(attempt)", "pusher.delay": "\(delay)", "pusher.cause": "\(cause.code)",
                    "pusher.close_code": "\(cause.closeCode.map(String.init) ?? "-")",
                ])
        case .failed(let error):
            self.log(
                .warning, "connection failed, not retrying",
                [
                    "pusher.error": "\(error.code)", "pusher.reason": "\(error.message)",
                    "pusher.close_code": "\(error.closeCode.map(String.init) ?? "-")",
                ])
        default:
            self.log(.debug, "connection state changed", ["pusher.state": "\(state)"])
        }
    }
}
