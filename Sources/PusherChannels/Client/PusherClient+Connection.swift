// SPDX-License-Identifier: MIT

import Logging
import NIOCore
import NIOWebSocket
import PusherCore
import WSClient

extension PusherClient {
    private enum ConnectionOutcome: Sendable {
        case closed(code: Int?, reason: String?)
        case failed(any Error)
        case aborted
    }

    /// One socket's whole life: open, read and write, watchdog; ends when the socket closes, fails
    /// or is aborted through its handle.
    nonisolated func runConnection(generation: Int, url: String, handle: ConnectionHandle) async {
        // UTF-8 is not validated by the socket: a strict check would close the whole connection
        // over one bad frame. Invalid bytes become U+FFFD and only that message is affected.
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: self.options.maximumMessageSize,
            closeTimeout: self.options.closeTimeout
        )
        let maximumMessageSize = self.options.maximumMessageSize
        let transportLogger = self.logger ?? Logger(label: "pusher-channels", factory: { _ in SwiftLogNoOpLogHandler() })

        // Three children: the socket, the abort signal, the watchdog (which returns nil). The first
        // outcome ends the other two.
        let outcome = await withTaskGroup(of: ConnectionOutcome?.self) { group in
            group.addTask {
                do {
                    let closeFrame = try await WebSocketClient.connect(
                        url: url,
                        configuration: configuration,
                        tlsConfiguration: self.options.tlsConfiguration,
                        logger: transportLogger
                    ) { inbound, outbound, _ in
                        await self.transportOpened(generation: generation)
                        try await withThrowingTaskGroup(of: Void.self) { socketGroup in
                            socketGroup.addTask {
                                for await frame in handle.frames {
                                    switch frame {
                                    case .text(let text): try await outbound.write(.text(text))
                                    case .close: try await outbound.close(.normalClosure, reason: nil)
                                    }
                                }
                            }
                            for try await message in inbound.messages(maxSize: maximumMessageSize) {
                                switch message {
                                case .text(let text):
                                    await self.received(text, generation: generation)
                                case .binary:
                                    await self.report(PusherError(.malformedMessage, "binary frames are not part of the protocol"))
                                }
                            }
                            socketGroup.cancelAll()
                        }
                    }
                    return .closed(code: closeFrame.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }, reason: closeFrame?.reason)
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                await handle.abort.wait()
                return .aborted
            }
            group.addTask {
                await self.runWatchdog(generation: generation, rearm: handle.rearmWatchdog)
                return nil
            }
            var outcome = ConnectionOutcome.aborted
            while let result = await group.next() {
                if let result {
                    outcome = result
                    break
                }
            }
            group.cancelAll()
            return outcome
        }
        // A cancelled connection task means the run itself is ending (not a lost connection).
        if Task.isCancelled {
            await self.connectionCancelled(generation: generation)
        } else {
            await self.connectionEnded(generation: generation, outcome: outcome)
        }
    }

    private func connectionCancelled(generation: Int) {
        self.connections.removeValue(forKey: generation)?.outbox.finish()
    }

    private func connectionEnded(generation: Int, outcome: ConnectionOutcome) {
        self.connections.removeValue(forKey: generation)?.outbox.finish()
        let now = self.clock.now
        let random = Double.random(in: 0..<1)
        switch outcome {
        case .closed(let code, let reason):
            self.log(.debug, "connection closed", ["pusher.generation": "\(generation)", "pusher.close_code": "\(code.map(String.init) ?? "none")"])
            self.perform(self.connection.transportClosed(generation: generation, closeCode: code, reason: reason, at: now, random: random))
        case .failed(let error):
            self.log(.debug, "connection failed", ["pusher.generation": "\(generation)", "pusher.error": "\(error)"])
            let failure = PusherError(.transportFailed, "connection failed: \(error)", cause: error)
            self.perform(self.connection.transportFailed(generation: generation, error: failure, at: now, random: random))
        case .aborted:
            self.log(.debug, "connection dropped", ["pusher.generation": "\(generation)"])
            self.perform(self.connection.transportClosed(generation: generation, closeCode: nil, reason: nil, at: now, random: random))
        }
    }

    private func transportOpened(generation: Int) {
        self.perform(self.connection.transportOpened(generation: generation, at: self.clock.now))
    }

    /// Sleeps on the injected clock for as long as the state machine says, asking again on every
    /// wake-up or re-arm; handles the handshake, activity, pong and close timeouts of one socket.
    private nonisolated func runWatchdog(generation: Int, rearm: WakeupSignal) async {
        var decision = await self.watchdogFired(generation: generation)
        while case .sleep(let duration) = decision {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await self.clock.sleep(for: duration) }
                group.addTask { await rearm.wait() }
                await group.next()
                group.cancelAll()
            }
            if Task.isCancelled { return }
            decision = await self.watchdogFired(generation: generation)
        }
    }

    private func watchdogFired(generation: Int) -> ConnectionStateMachine.WatchdogDecision {
        let (decision, actions) = self.connection.watchdogFired(generation: generation, at: self.clock.now, random: .random(in: 0..<1))
        self.perform(actions)
        return decision
    }

    // MARK: Inbound messages

    /// Handles one text frame. This is the per-event hot path: one envelope parse, one dictionary
    /// lookup, one yield per consumer.
    func received(_ text: String, generation: Int) {
        let isActive = generation == self.connection.activeGeneration
        guard isActive || self.connection.isLive(generation) else { return }
        if isActive { self.connection.messageReceived(at: self.clock.now) }
        let message: PusherMessage
        do {
            message = try PusherMessage(parsing: text)
        } catch {
            self.report(error)
            return
        }
        if message.event.utf8.first == UInt8(ascii: "p") && message.event.hasPrefix("pusher") {
            // A socket being closed only delivers its last channel events.
            if isActive { self.handleProtocolMessage(message, generation: generation) }
        } else {
            self.deliver(message)
        }
    }

    private func deliver(_ message: PusherMessage) {
        guard let channel = message.channel else {
            self.log(.trace, "dropping event without channel", ["pusher.event": "\(message.event)"])
            return
        }
        if channel.utf8.first == UInt8(ascii: "#") {
            self.deliverToUser(message)
            return
        }
        // Events of channels nobody listens to (late ones after an unsubscribe) are dropped.
        guard let listeners = self.channelListeners[channel] else { return }
        if channel.hasPrefix("private-encrypted-") && !message.event.hasPrefix("pusher") {
            self.encryptedEventReceived(message)
            return
        }
        self.deliver(ChannelEvent(channel: channel, name: message.event, data: message.data ?? "", userID: message.userID), to: listeners)
    }

    /// Yields `event` to the consumers of its channel and to every all-events consumer.
    func deliver(_ event: ChannelEvent) {
        guard let listeners = self.channelListeners[event.channel] else { return }
        self.deliver(event, to: listeners)
    }

    private func deliver(_ event: ChannelEvent, to listeners: [EventListener]) {
        var removed: [Int] = []
        self.fanOut(event, to: listeners, removed: &removed)
        self.fanOut(event, to: self.allEventListeners, removed: &removed)
        for id in removed { self.removeListener(id) }
    }

    /// Yields `event` to those of `listeners` that take its name; adds the ones that are gone to `removed`.
    func fanOut(_ event: ChannelEvent, to listeners: [EventListener], removed: inout [Int]) {
        for listener in listeners where listener.eventName == nil || listener.eventName == event.name {
            if !Self.yield(event, to: listener.continuation, failsWhenFull: listener.failsWhenFull, channel: event.channel) {
                removed.append(listener.id)
            }
        }
    }

    /// Yields `element` to a consumer's stream. When the buffer is full and the consumer fails when
    /// full, its sequence ends with `consumerTooSlow`. Returns false when the consumer is gone (or was
    /// just failed), so the caller removes it.
    static func yield<Element: Sendable>(
        _ element: Element,
        to continuation: AsyncThrowingStream<Element, any Error>.Continuation,
        failsWhenFull: Bool,
        channel: String
    ) -> Bool {
        switch continuation.yield(element) {
        case .enqueued:
            return true
        case .dropped:
            guard failsWhenFull else { return true }
            continuation.finish(
                throwing: PusherError(
                    .consumerTooSlow,
                    "the consumer fell more than its buffer behind; later elements were not delivered to it",
                    channel: channel
                )
            )
            return false
        case .terminated:
            return false
        @unknown default:
            return true
        }
    }

    private func handleProtocolMessage(_ message: PusherMessage, generation: Int) {
        switch message.event {
        case PusherEventName.connectionEstablished:
            guard let data = try? message.parsedData(), let socketID = data["socket_id"]?.stringValue else {
                self.report(PusherError(.malformedMessage, "pusher:connection_established without a socket_id"))
                return
            }
            let activityTimeout = data["activity_timeout"]?.intValue.map { Duration.seconds($0) }
            self.perform(
                self.connection.connectionEstablished(generation: generation, socketID: socketID, activityTimeout: activityTimeout, at: self.clock.now)
            )
        case PusherEventName.ping:
            self.perform(self.connection.pingReceived(generation: generation))
        case PusherEventName.pong:
            break
        case PusherEventName.error:
            let error = Self.serverError(from: message)
            self.report(error)
            // An error that names a pending subscription is about it; another one that arrives while
            // the sign-in waits for confirmation refuses the sign-in.
            if !self.failPendingSubscription(matching: error) { self.perform(self.signInMachine.serverError(error)) }
        case PusherEventName.subscriptionSucceeded:
            guard let channel = message.channel else { return }
            let action = self.subscriptions.subscriptionSucceeded(channel)
            if case .succeeded = action, channel.hasPrefix("presence-") { self.presenceSubscribed(channel, message) }
            self.perform(action)
        case PusherEventName.memberAdded, PusherEventName.memberRemoved:
            self.presenceMemberChanged(message)
        case PusherEventName.subscriptionError:
            guard let channel = message.channel else { return }
            var error = Self.serverError(from: message)
            error.code = .subscriptionFailed
            error.channel = channel
            for action in self.subscriptions.subscriptionFailed(channel, error: error) { self.perform(action) }
        case PusherEventName.signInSuccess:
            self.signInSucceeded(message)
        case PusherEventName.watchlistEvents:
            self.watchlistReceived(message)
        case PusherEventName.subscriptionCount:
            guard let channel = message.channel, self.channelListeners[channel] != nil else { return }
            guard let count = (try? message.parsedData())?["subscription_count"]?.intValue else {
                self.report(PusherError(.malformedMessage, "subscription_count without a count", channel: channel))
                return
            }
            self.observers.notifyCount(count, channel: channel)
        default:
            if message.event.hasPrefix(PusherEventName.internalPrefix) {
                self.log(.trace, "ignoring internal event", ["pusher.event": "\(message.event)"])
            } else {
                // `pusher:` events on a channel (such as `pusher:cache_miss`) belong to its consumers.
                self.deliver(message)
            }
        }
    }

    /// Reads `{"message", "code"}` from a `pusher:error`, whether `data` is an object, a JSON
    /// string, plain text, or missing.
    static func serverError(from message: PusherMessage) -> PusherError {
        let data = try? message.parsedData()
        let text = data?["message"]?.stringValue ?? (data == nil ? message.data : nil) ?? "server error"
        return PusherError(.serverError, text, closeCode: data?["code"]?.intValue, channel: message.channel)
    }
}
