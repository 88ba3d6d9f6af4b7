// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// Performs the engine's actions, in order. The only place where the engine's decisions turn
    /// into I/O: socket writes, child tasks, consumer buffers, notifications.
    func perform(_ actions: [ClientEngine.Action]) {
        // Consumers with staged events (handed over once each, after the batch) and consumers to forget.
        var staged: [EventConsumer] = []
        var failed: [ConsumerID] = []
        // The consumer of the latest delivery: a batch's events mostly go to the same consumers.
        var recent: EventConsumer?
        // Whether the number of confirmed subscriptions may have changed (for the metrics gauge).
        var subscriptionsChanged = false
        // Whether client events went out or their channels changed: callers waiting for room look again.
        var clientEventsMoved = false
        for action in actions {
            switch action {
            case .deliver(let event, let id):
                let consumer: EventConsumer
                if let recent, recent.id == id {
                    consumer = recent
                } else {
                    guard let found = self.eventConsumers[id] else { continue }
                    consumer = found
                    recent = found
                }
                consumer.stage(event, into: &staged)
            case .deliverPresence(let change, let id):
                guard let buffer = self.presenceConsumers[id] else { continue }
                var tally = DeliveryTally()
                if !buffer.deliver(contentsOf: [change], tally: &tally) { failed.append(id) }
                self.logBackPressure(tally, channel: buffer.channel)
                // Presence changes are not events: only a failed consumer is counted.
                self.metrics?.handedOver(DeliveryTally(consumersFailed: tally.consumersFailed), channel: buffer.channel)
            case .finishConsumer(let id, let error):
                recent = nil
                if let consumer = self.eventConsumers.removeValue(forKey: id) {
                    // Its staged events go first, counted like any batch; it is finished anyway.
                    var gone: [ConsumerID] = []
                    self.handOver([consumer], failed: &gone)
                    consumer.buffer.finish(throwing: error)
                }
                self.presenceConsumers.removeValue(forKey: id)?.finish(throwing: error)
            case .consumersChanged(let channel):
                let name = channel?.rawValue ?? Self.userEventsConsumers
                // Only a channel's last consumer leaving unsubscribes it.
                if self.metrics != nil, self.engine.consumerCount(on: name) == 0 { subscriptionsChanged = true }
                clientEventsMoved = true
                self.consumersChanged(on: name)
            case .openConnection(let generation):
                self.openConnection(generation: generation)
            case .send(let generation, let text):
                _ = self.connections[generation]?.send(text, limit: self.options.outboundBufferLimit)
                clientEventsMoved = true
            case .closeConnection(let generation):
                self.connections[generation]?.close()
                // A reader paused on this socket reads on, so that the close completes.
                self.flowGate.wakeWaiters()
            case .abortConnection(let generation):
                self.connections[generation]?.abort.fire()
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
            case .cancelCall(let timer, let reason):
                self.cancelCall(timer, reason: reason)
            case .publishState(let state):
                self.endpointRotation?.stateChanged(state)
                self.logStateChange(state)
                subscriptionsChanged = true
                self.metrics?.stateChanged(to: state)
                self.endConnectionSpans(state: state)
                self.observers.publish(state, endpoint: self.currentEndpoint)
            case .publishUser(let state):
                self.log(.debug, "user state changed", ["pusher.user_state": "\(state)"])
                self.observers.publish(state)
            case .report(let error):
                self.log(
                    .debug, "error",
                    [
                        "pusher.error": "\(error.code)",
                        "pusher.close_code": "\(error.closeCode.map(String.init) ?? "-")",
                    ])
                self.observers.report(error)
            case .reportDecryptionFailure(let failure):
                self.log(
                    .debug, "decryption failed",
                    ["pusher.channel": "\(failure.channel)", "pusher.event": "\(failure.event)"])
                self.metrics?.decryptionFailed(failure)
                self.observers.report(failure)
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
                self.observers.notify(event)
            case .notifySubscriptionCount(let count, let channel):
                self.observers.notifyCount(count, channel: channel.rawValue)
            case .notifyWatchlist(let event):
                self.observers.notify(event)
            case .finished:
                self.commands.yield(.finish)
            }
        }
        // One hand-over (one lock, one wake) per consumer per batch.
        self.handOver(staged, failed: &failed)
        if subscriptionsChanged { self.metrics?.subscriptionCount(self.engine.subscribedChannelCount) }
        if clientEventsMoved || subscriptionsChanged { self.clientEventRoomMayHaveChanged() }
        for id in failed { self.perform(self.engine.removeConsumer(id)) }
    }

    func consumersChanged(on channel: String) {
        guard !self.consumerWaiters.isEmpty else { return }
        let count = self.registeredConsumerCount(on: channel)
        self.consumerWaiters.removeAll { waiter in
            guard waiter.channel == channel, waiter.count == count else { return false }
            waiter.signal.fire()
            return true
        }
    }

    // MARK: Delivery

    /// Hands the messages of socket reads to the engine and performs the outcome: one hop to this
    /// actor per batch, not per event. Large batches go in slices, so that consumers are woken
    /// while the rest of the batch is still being handled.
    func received(_ messages: [InboundMessage], generation: Generation) {
        self.registerPendingConsumers()
        var actions = self.actionBuffer
        self.actionBuffer = []
        let now = self.clock.now
        var start = messages.startIndex
        while start < messages.endIndex {
            let end = min(start + Self.sliceSize, messages.endIndex)
            actions.removeAll(keepingCapacity: true)
            self.engine.received(messages[start..<end], generation: generation, at: now, into: &actions)
            self.perform(actions)
            start = end
        }
        self.actionBuffer = actions
        self.metrics?.received(total: self.engine.channelEventsReceived)
    }

    /// How many messages are handled between two wake-ups of waiting consumers.
    static let sliceSize = 128

    /// The batch's hand-over to consumers (one lock and one wake-up each), counting what was
    /// delivered, dropped and failed: one counter increment per batch (per channel with channel
    /// labels), not per event. Appends the consumers that are gone or just failed to `failed`.
    func handOver(_ staged: [EventConsumer], failed: inout [ConsumerID]) {
        let labelled = self.metrics?.includesChannelLabel ?? false
        var total = DeliveryTally()
        for consumer in staged {
            var tally = DeliveryTally()
            if !consumer.flush(tally: &tally) { failed.append(consumer.id) }
            self.logBackPressure(tally, channel: consumer.buffer.channel)
            if labelled { self.metrics?.handedOver(tally, channel: consumer.buffer.channel) } else { total += tally }
        }
        if !labelled { self.metrics?.handedOver(total, channel: nil) }
    }

    /// Logs consumers failed as too slow (`warning`) and events their policy dropped (`notice`),
    /// each one line per ``LogPacer/interval`` at most, counting what came since the previous line.
    /// Names the channel, never event contents.
    func logBackPressure(_ tally: DeliveryTally, channel: String?) {
        guard self.logger != nil, tally.consumersFailed > 0 || tally.dropped > 0 || tally.readingPaused > 0 else {
            return
        }
        let channel = channel ?? Self.userEventsConsumers
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
    private func logStateChange(_ state: ConnectionState) {
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
