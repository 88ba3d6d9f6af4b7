// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Handles every message of one socket read, in order. This is the per-event hot path: per
    /// event one action per consumer that takes it; the channel's consumers are looked up once per
    /// run of events of one channel, and the liveness clock is touched once per batch.
    package mutating func received(_ messages: [InboundMessage], generation: Generation, at now: Duration) -> [Action] {
        var actions: [Action] = []
        self.received(messages[...], generation: generation, at: now, into: &actions)
        return actions
    }

    /// ``received(_:generation:at:)`` appending to the caller's buffer, so a driver can reuse one.
    /// Takes a concrete slice (not a generic sequence): called from another module, a generic
    /// would not be specialised and would look up metadata for every message.
    package mutating func received(
        _ messages: ArraySlice<InboundMessage>, generation: Generation, at now: Duration, into actions: inout [Action]
    ) {
        let isActive = generation == self.connection.activeGeneration
        guard isActive || self.connection.isLive(generation), !self.connection.isDropping(generation) else { return }
        self.now = now
        if isActive {
            self.connection.messageReceived(at: now)
            self.lastFrameAt = now
        }
        var route: Route?
        // The decryption machine's answers for one event, in one buffer for the whole batch.
        var decrypted: [DecryptionStateMachine.Action] = []
        for inbound in messages {
            let message: PusherMessage
            switch inbound {
            case .message(let decoded):
                message = decoded
            case .malformed(let error):
                actions.append(.report(error))
                continue
            }
            if PusherEventName.isProtocolEvent(message.event) {
                // A socket being closed only delivers its last channel events.
                if isActive {
                    // It may change who consumes what.
                    route = nil
                    self.handleProtocolMessage(message, generation: generation, at: now, into: &actions)
                    // A protocol violation drops the socket: the rest of its batch is not read.
                    if self.connection.isDropping(generation) { return }
                }
            } else {
                self.channelEventsReceived &+= 1
                // Only an event that reached the consumers of a confirmed channel counts towards
                // the connection's health (checked until the first one).
                if self.deliver(message, route: &route, decrypted: &decrypted, into: &actions), isActive,
                    !self.connection.hasDeliveredChannelEvent, self.isConfirmed(message.channel)
                {
                    self.connection.channelEventReceived()
                }
            }
        }
    }

    /// The consumers of the channel of the latest channel event of a batch: the events of a busy
    /// channel are routed with one dictionary lookup, not one each.
    struct Route {
        var channel: String
        var consumers: ConsumerTable.Channel
        var isEncrypted: Bool
    }

    /// Whether `channel` is one the server confirmed on this connection (the signed-in user's
    /// server-to-user channel counts once the sign-in succeeded).
    private func isConfirmed(_ channel: String?) -> Bool {
        guard let channel else { return false }
        return self.isSubscribed(channel) || channel == self.signInMachine.user?.serverToUserChannel
    }

    /// Routes a channel event to its consumers: app events of encrypted channels are decrypted first
    /// (`pusher:` events are the server's, in plain text: see `deliverPlainProtocolEvent`),
    /// server-to-user events go to the signed-in user's consumers. Returns whether the event was
    /// handed to consumers now.
    ///
    /// `decrypted` is scratch space for the decryption machine's answers (kept empty between calls).
    @discardableResult
    private mutating func deliver(
        _ message: PusherMessage, route: inout Route?, decrypted: inout [DecryptionStateMachine.Action],
        into actions: inout [Action]
    ) -> Bool {
        guard let channel = message.channel else { return false }
        let consumers: ConsumerTable.Channel
        let isEncrypted: Bool
        // The route is never a server-to-user channel's: the check for one is made on a miss.
        if let route, route.channel == channel {
            (consumers, isEncrypted) = (route.consumers, route.isEncrypted)
        } else {
            if channel.utf8.first == UInt8(ascii: "#") {
                return self.deliverToUser(message, into: &actions)
            }
            // Events of channels nobody listens to (late ones after an unsubscribe) are dropped.
            guard let found = self.consumers.channels[channel] else {
                route = nil
                return false
            }
            (consumers, isEncrypted) = (found, ChannelName.isEncrypted(channel))
            route = Route(channel: channel, consumers: consumers, isEncrypted: isEncrypted)
        }
        if isEncrypted {
            guard !PusherEventName.isProtocolEvent(message.event) else {
                return self.deliverPlainProtocolEvent(message, channel: channel, consumers: consumers, into: &actions)
            }
            self.decryption.received(message, at: self.now, open: self.configuration.open, into: &decrypted)
            defer { decrypted.removeAll(keepingCapacity: true) }
            // The event opened (the usual case): to the consumers found above, which are the ones
            // `apply` would look up again.
            if decrypted.count == 1, case .deliver(_, let plaintext) = decrypted[0] {
                Self.fanOut(
                    ChannelEvent(message, channel: channel, data: plaintext), to: consumers,
                    allChannels: self.consumers.all, into: &actions)
                return true
            }
            let opened = decrypted.first.map { if case .deliver = $0 { true } else { false } } ?? false
            self.apply(decrypted, into: &actions)
            return opened
        }
        Self.fanOut(
            ChannelEvent(message, channel: channel), to: consumers, allChannels: self.consumers.all, into: &actions)
        return true
    }

    /// A `pusher:` event the client does not handle itself, on an encrypted channel. Nothing
    /// authenticates it: the relaying server (the party the encryption keeps out) may have made it
    /// up. `pusher:cache_miss` still reaches consumers, without its data (it only tells the app to
    /// fetch the initial state itself); every other one is dropped and reported as a
    /// ``DecryptionFailure`` with reason `notEncrypted`.
    private func deliverPlainProtocolEvent(
        _ message: PusherMessage, channel: String, consumers: ConsumerTable.Channel, into actions: inout [Action]
    ) -> Bool {
        guard message.event == PusherEventName.cacheMiss else {
            actions.append(
                .reportDecryptionFailure(
                    DecryptionFailure(
                        channel: channel, event: message.event, reason: .notEncrypted,
                        message: "a plain-text pusher: event on an encrypted channel was dropped")))
            return false
        }
        Self.fanOut(
            ChannelEvent(channel: channel, name: message.event, data: "", userID: nil), to: consumers,
            allChannels: self.consumers.all, into: &actions)
        return false
    }

    /// Hands `event` to the consumers of its channel that take its name, then to every
    /// all-channel consumer (`allChannels`). Static: called from a mutating method, a method of
    /// `self` made the compiler copy the whole engine (over a kilobyte) for every event.
    static func fanOut(
        _ event: ChannelEvent, to consumers: ConsumerTable.Channel, allChannels: [ConsumerID],
        into actions: inout [Action]
    ) {
        let name = event.name
        for consumer in consumers.events where consumer.takes(name) {
            actions.append(.deliver(event, consumer: consumer.id))
        }
        for id in allChannels { actions.append(.deliver(event, consumer: id)) }
    }

    private mutating func handleProtocolMessage(
        _ message: PusherMessage, generation: Generation, at now: Duration, into actions: inout [Action]
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
            guard Self.isValidSocketID(socketID) else {
                // It is signed into every authorization: one with a `:` could make a signature stand
                // for something else. The server is broken or hostile: drop it, back off.
                let error = PusherError(
                    .protocolViolation, "pusher:connection_established with a socket_id that is not digits.digits")
                actions += self.apply(self.connection.protocolViolation(generation: generation, error: error))
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
                self.apply(self.signInMachine.serverError(error), into: &actions)
            }
        case PusherEventName.subscriptionSucceeded:
            self.handleSubscriptionSucceeded(message, into: &actions)
        case PusherEventName.memberAdded, PusherEventName.memberRemoved:
            self.handleMemberChange(message, into: &actions)
        case PusherEventName.subscriptionError:
            self.handleSubscriptionError(message, into: &actions)
        case PusherEventName.signInSuccess:
            let userData = (try? message.parsedData())?["user_data"]?.stringValue
            self.apply(self.signInMachine.signInSucceeded(userData: userData), into: &actions)
        case PusherEventName.watchlistEvents:
            do {
                for event in try WatchlistEvent.events(from: try message.parsedData()) {
                    actions.append(.notifyWatchlist(event))
                }
            } catch {
                actions.append(.report(error))
            }
        case PusherEventName.subscriptionCount:
            self.handleSubscriptionCount(message, into: &actions)
        default:
            // Unknown `pusher_internal:` events are ignored; `pusher:` events on a channel (such as
            // `pusher:cache_miss`) belong to its consumers.
            if !message.event.hasPrefix(PusherEventName.internalPrefix) {
                var route: Route?
                var decrypted: [DecryptionStateMachine.Action] = []
                self.deliver(message, route: &route, decrypted: &decrypted, into: &actions)
            }
        }
    }

    /// Whether `socketID` has the form the protocol gives it: digits, a dot, digits (at most 64
    /// bytes in all; ``PusherNameRules/isValidSocketID(_:)``).
    package static func isValidSocketID(_ socketID: String) -> Bool {
        PusherNameRules.isValidSocketID(socketID)
    }

    /// Reads `{"message", "code"}` from a `pusher:error`, and `{"type", "error", "status"}` from a
    /// `pusher:subscription_error` (soketi, Reverb, `serve`), whether `data` is an object, a JSON
    /// string, plain text, or missing: the text from `error` or `message`, the status into
    /// ``PusherError/httpStatus``, the type into ``PusherError/serverErrorType``.
    static func serverError(from message: PusherMessage) -> PusherError {
        let data = try? message.parsedData()
        let text =
            data?["error"]?.stringValue ?? data?["message"]?.stringValue ?? (data == nil ? message.data : nil)
            ?? "server error"
        var error = PusherError(.serverError, text, closeCode: data?["code"]?.intValue, channel: message.channel)
        error.httpStatus = data?["status"]?.intValue
        error.serverErrorType = data?["type"]?.stringValue
        return error
    }
}
