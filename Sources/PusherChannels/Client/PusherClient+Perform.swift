// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// Performs the engine's actions, in order. The only place where the engine's decisions turn
    /// into I/O: socket writes, child tasks, consumer buffers, notifications.
    func perform(_ actions: [ClientEngine.Action]) {
        // Consumers to wake (once each, after the whole batch) and consumers to forget.
        var wakes: [ConsumerBuffer<ChannelEvent>] = []
        var failed: [Int] = []
        for action in actions {
            switch action {
            case .deliver(let event, let id):
                guard let buffer = self.eventConsumers[id] else { continue }
                switch buffer.append(event) {
                case .appended(let wake):
                    if wake { wakes.append(buffer) }
                case .dropped:
                    break
                case .failed, .gone:
                    wakes.append(buffer)
                    failed.append(id)
                }
            case .deliverPresence(let change, let id):
                guard let buffer = self.presenceConsumers[id] else { continue }
                switch buffer.append(change) {
                case .appended, .dropped: buffer.wake()
                case .failed, .gone:
                    buffer.wake()
                    failed.append(id)
                }
            case .finishConsumer(let id, let error):
                self.eventConsumers.removeValue(forKey: id)?.finish(throwing: error)
                self.presenceConsumers.removeValue(forKey: id)?.finish(throwing: error)
            case .consumersChanged(let channel):
                self.consumersChanged(on: channel)
            case .openConnection(let generation):
                self.openConnection(generation: generation)
            case .send(let generation, let text):
                self.connections[generation]?.outbox.yield(.text(text))
            case .closeConnection(let generation):
                self.connections[generation]?.outbox.yield(.close)
            case .abortConnection(let generation):
                self.connections[generation]?.abort.fire()
            case .rearmWatchdog(let generation):
                self.connections[generation]?.rearmWatchdog.signal()
            case .startReconnectTimer(let generation, let delay):
                let cancellation = OneShotSignal()
                self.reconnectTimers[generation] = cancellation
                self.commands.yield(.startReconnectTimer(generation: generation, delay: delay, cancellation: cancellation))
            case .cancelReconnectTimer(let generation):
                self.reconnectTimers.removeValue(forKey: generation)?.fire()
            case .startClientEventTimer(let delay):
                self.commands.yield(.startClientEventTimer(delay: delay))
            case .authorize(let channel, let socketID):
                self.log(.debug, "authorizing", ["pusher.channel": "\(channel)"])
                self.commands.yield(.authorize(channel: channel, socketID: socketID))
            case .reloadKey(let channel, let socketID):
                self.log(.debug, "reloading the key of an encrypted channel", ["pusher.channel": "\(channel)"])
                self.commands.yield(.reloadKey(channel: channel, socketID: socketID))
            case .authenticateUser(let socketID):
                self.log(.debug, "authenticating the user")
                self.commands.yield(.authenticateUser(socketID: socketID))
            case .publishState(let state):
                self.log(.debug, "connection state changed", ["pusher.state": "\(state)"])
                self.observers.publish(state)
            case .publishUser(let state):
                self.log(.debug, "user state changed", ["pusher.user_state": "\(state)"])
                self.observers.publish(state)
            case .report(let error):
                self.log(.debug, "error", ["pusher.error": "\(error.code)", "pusher.close_code": "\(error.closeCode.map(String.init) ?? "-")"])
                self.observers.report(error)
            case .reportDecryptionFailure(let failure):
                self.log(.debug, "decryption failed", ["pusher.channel": "\(failure.channel)", "pusher.event": "\(failure.event)"])
                self.observers.report(failure)
            case .notifySubscription(let event):
                switch event {
                case .succeeded(let channel, let isResubscription):
                    self.log(.debug, "subscribed", ["pusher.channel": "\(channel)", "pusher.resubscription": "\(isResubscription)"])
                case .failed(let channel, _):
                    self.log(.debug, "subscription failed", ["pusher.channel": "\(channel)"])
                }
                self.observers.notify(event)
            case .notifySubscriptionCount(let count, let channel):
                self.observers.notifyCount(count, channel: channel)
            case .notifyWatchlist(let event):
                self.observers.notify(event)
            case .finished:
                self.commands.yield(.finish)
            }
        }
        // One wake per consumer per batch, after every event of the batch is buffered.
        for buffer in wakes { buffer.wake() }
        for id in failed { self.perform(self.engine.removeConsumer(id)) }
    }

    /// Hands every message of one socket read to the engine and performs the outcome: one hop to
    /// this actor per batch, not per event.
    func received(_ frames: [ClientEngine.InboundFrame], generation: Int) {
        var actions = self.actionBuffer
        self.actionBuffer = []
        actions.removeAll(keepingCapacity: true)
        self.engine.received(frames, generation: generation, at: self.clock.now, into: &actions)
        self.perform(actions)
        self.actionBuffer = actions
    }

    func consumersChanged(on channel: String) {
        guard !self.consumerWaiters.isEmpty else { return }
        let count = self.consumerCount(on: channel)
        self.consumerWaiters.removeAll { waiter in
            guard waiter.channel == channel, waiter.count == count else { return false }
            waiter.signal.fire()
            return true
        }
    }
}
