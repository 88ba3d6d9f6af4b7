// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// One inbound WebSocket message.
    package enum InboundFrame: Sendable, Hashable {
        case text(String)
        /// A text message the transport already parsed (on its own thread, from its read buffer).
        case parsed(PusherMessage)
        /// A text message that is not a valid protocol message.
        case malformed(PusherError)
        /// Binary frames are not part of the protocol; each is reported.
        case binary
    }

    /// Handles every message of one socket read, in order. This is the per-event hot path: per
    /// event one envelope parse, one lookup of the channel's consumers and one action per consumer
    /// that takes it; the liveness clock is touched once per batch.
    package mutating func received(_ frames: [InboundFrame], generation: Int, at now: Duration) -> [Action] {
        var actions: [Action] = []
        self.received(frames[...], generation: generation, at: now, into: &actions)
        return actions
    }

    /// ``received(_:generation:at:)`` appending to the caller's buffer, so a driver can reuse one.
    /// Takes a concrete slice (not a generic sequence): called from another module, a generic
    /// would not be specialised and would look up metadata for every frame.
    package mutating func received(
        _ frames: ArraySlice<InboundFrame>, generation: Int, at now: Duration, into actions: inout [Action]
    ) {
        let isActive = generation == self.connection.activeGeneration
        guard isActive || self.connection.isLive(generation) else { return }
        self.now = now
        if isActive { self.connection.messageReceived(at: now) }
        for frame in frames {
            let message: PusherMessage
            switch frame {
            case .parsed(let parsed):
                message = parsed
            case .text(let text):
                do {
                    message = try PusherMessage(parsing: text)
                } catch {
                    actions.append(.report(error))
                    continue
                }
            case .malformed(let error):
                actions.append(.report(error))
                continue
            case .binary:
                actions.append(.report(PusherError(.malformedMessage, "binary frames are not part of the protocol")))
                continue
            }
            if PusherEventName.isProtocolEvent(message.event) {
                // A socket being closed only delivers its last channel events.
                if isActive { self.handleProtocolMessage(message, generation: generation, at: now, into: &actions) }
            } else {
                if isActive { self.connection.channelEventReceived() }
                self.channelEventsReceived &+= 1
                self.deliver(message, into: &actions)
            }
        }
    }

    /// Routes a channel event to its consumers: app events of encrypted channels are decrypted first
    /// (`pusher:` events are the server's, in plain text), server-to-user events go to the signed-in
    /// user's consumers.
    private mutating func deliver(_ message: PusherMessage, into actions: inout [Action]) {
        guard let channel = message.channel else { return }
        if channel.utf8.first == UInt8(ascii: "#") {
            self.deliverToUser(message, into: &actions)
            return
        }
        // Events of channels nobody listens to (late ones after an unsubscribe) are dropped.
        guard let consumers = self.consumers.channels[channel] else { return }
        if ChannelName.isEncrypted(channel), !PusherEventName.isProtocolEvent(message.event) {
            self.apply(self.decryption.received(message, at: self.now, open: self.configuration.open), to: &actions)
            return
        }
        self.fanOut(ChannelEvent(message, channel: channel), to: consumers, into: &actions)
    }

    /// Hands `event` to the consumers of its channel that take its name, then to every all-channel consumer.
    func fanOut(_ event: ChannelEvent, to consumers: ConsumerTable.Channel, into actions: inout [Action]) {
        for consumer in consumers.events where consumer.takes(event.name) {
            actions.append(.deliver(event, consumer: consumer.id))
        }
        for id in self.consumers.all { actions.append(.deliver(event, consumer: id)) }
    }

    private mutating func handleProtocolMessage(
        _ message: PusherMessage, generation: Int, at now: Duration, into actions: inout [Action]
    ) {
        switch message.event {
        case PusherEventName.connectionEstablished:
            guard let data = try? message.parsedData(), let socketID = data["socket_id"]?.stringValue else {
                actions.append(
                    .report(PusherError(.malformedMessage, "pusher:connection_established without a socket_id")))
                return
            }
            if self.connection.isConnected(generation) {
                actions.append(
                    .report(
                        PusherError(
                            .protocolViolation, "ignored a second pusher:connection_established on a connected socket"))
                )
                return
            }
            let activityTimeout = data["activity_timeout"]?.intValue.map { Duration.seconds($0) }
            actions += self.apply(
                self.connection.connectionEstablished(
                    generation: generation, socketID: socketID, activityTimeout: activityTimeout, at: now))
        case PusherEventName.ping:
            actions += self.apply(self.connection.pingReceived(generation: generation))
        case PusherEventName.pong:
            break
        case PusherEventName.error:
            let error = Self.serverError(from: message)
            actions.append(.report(error))
            // An error that names a pending subscription is about it; another one that arrives while
            // the sign-in waits for confirmation refuses the sign-in.
            if !self.failPendingSubscription(matching: error, into: &actions) {
                self.apply(self.signInMachine.serverError(error), to: &actions)
            }
        case PusherEventName.subscriptionSucceeded:
            guard let channel = message.channel else { return }
            let action = self.subscriptions.subscriptionSucceeded(channel)
            if case .succeeded = action, ChannelName.kind(of: channel) == .presence {
                self.presenceSubscribed(channel, message, into: &actions)
            }
            self.apply(action, to: &actions)
        case PusherEventName.memberAdded, PusherEventName.memberRemoved:
            self.presenceMemberChanged(message, into: &actions)
        case PusherEventName.subscriptionError:
            guard let channel = message.channel else { return }
            var error = Self.serverError(from: message)
            error.code = .subscriptionFailed
            error.channel = channel
            for action in self.subscriptions.subscriptionFailed(channel, error: error) {
                self.apply(action, to: &actions)
            }
        case PusherEventName.signInSuccess:
            let userData = (try? message.parsedData())?["user_data"]?.stringValue
            self.apply(self.signInMachine.signInSucceeded(userData: userData), to: &actions)
        case PusherEventName.watchlistEvents:
            do {
                for event in try WatchlistEvent.events(from: try message.parsedData()) {
                    actions.append(.notifyWatchlist(event))
                }
            } catch {
                actions.append(.report(error))
            }
        case PusherEventName.subscriptionCount:
            guard let channel = message.channel, self.consumers.channels[channel] != nil else { return }
            guard let count = (try? message.parsedData())?["subscription_count"]?.intValue else {
                actions.append(
                    .report(PusherError(.malformedMessage, "subscription_count without a count", channel: channel)))
                return
            }
            actions.append(.notifySubscriptionCount(count, channel: channel))
        default:
            // Unknown `pusher_internal:` events are ignored; `pusher:` events on a channel (such as
            // `pusher:cache_miss`) belong to its consumers.
            if !message.event.hasPrefix(PusherEventName.internalPrefix) { self.deliver(message, into: &actions) }
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
