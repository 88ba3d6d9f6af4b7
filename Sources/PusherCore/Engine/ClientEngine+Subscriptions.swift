// SPDX-License-Identifier: MIT

/// Subscriptions, from the first consumer of a channel to the last one leaving: subscribe and
/// unsubscribe, authorization (a provided one, or the authorizer's), the server's confirmation,
/// refusal and subscriber count, and the resubscription of every channel on each new connection.
/// ``SubscriptionStateMachine`` decides; this carries out its decisions for the other parts of the
/// engine (keys, rosters, client events, consumers).
extension ClientEngine {
    // MARK: Consumers

    /// A consumer of `channel` arrived: the first one subscribes it.
    mutating func consumerAdded(on channel: ChannelName, into actions: inout [Action]) {
        self.apply(self.subscriptions.consumerAdded(channel), into: &actions)
        actions.append(.consumersChanged(channel: channel))
    }

    /// A consumer of `channel` left: the last one unsubscribes it.
    mutating func consumerRemoved(from channel: ChannelName, into actions: inout [Action]) {
        self.apply(self.subscriptions.consumerRemoved(channel), into: &actions)
        actions.append(.consumersChanged(channel: channel))
    }

    // MARK: Connections

    /// The connection is ready: every channel that has consumers is authorized or subscribed again.
    mutating func resubscribe(socketID: String, into actions: inout [Action]) {
        for action in self.subscriptions.connected(socketID: socketID) { self.apply(action, into: &actions) }
    }

    /// The connection is lost: every subscription ends with it, and so do the rosters, keys and
    /// provided authorizations that belonged to them.
    mutating func subscriptionsLost(into actions: inout [Action]) {
        self.subscriptions.disconnected(lastKnownAlive: self.lastFrameAt)
        self.rosters = [:]
        // Keys live only as long as their subscription.
        self.apply(self.decryption.removeAll(), into: &actions)
        // Each was signed for the socket that is gone.
        self.providedAuthorizations = [:]
    }

    // MARK: Authorization

    /// Authorizes `channel` for `socketID`: with the authorization passed when subscribing if it was
    /// made for this socket id (used once, never resent), else through the authorizer, else fails
    /// the subscription.
    mutating func authorize(_ channel: ChannelName, socketID: String, into actions: inout [Action]) {
        if let provided = self.providedAuthorizations.removeValue(forKey: channel), provided.socketID == socketID {
            self.authorized(
                channel: channel, socketID: socketID, result: .success(provided.authorization), into: &actions)
            return
        }
        guard self.configuration.hasAuthorizer else {
            let error = PusherError(
                .authorizationRequired,
                "no authorization for socket \(socketID): a provided authorization is good for one connection only; "
                    + "set PusherClientConfiguration.authorizer to subscribe again after a reconnect",
                channel: channel.rawValue
            )
            self.apply(
                self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error, at: self.now),
                into: &actions)
            return
        }
        // Signed in process: no call, no timer, no task (30,000 channels cost no more than public ones).
        if let signed = self.configuration.localAuthorization?(socketID, channel.rawValue) {
            self.authorized(channel: channel, socketID: socketID, result: signed, into: &actions)
            return
        }
        let call = TimerID.authorization(channel: channel, socketID: socketID)
        self.startCall(call, .authorize(channel: channel, socketID: socketID), into: &actions)
    }

    /// The authorizer answered ``Action/authorize(channel:socketID:)`` for `channel` on `socketID`
    /// at `now` (late answers for an older socket, a channel that is gone, or a call that timed out
    /// are ignored). `now` dates the retry of a refusal (``SubscriptionRetry``); nil takes the time
    /// of the latest input.
    package mutating func authorized(
        channel: ChannelName, socketID: String, result: Result<ChannelAuthorization, PusherError>,
        at now: Duration? = nil
    ) -> [Action] {
        if let now { self.now = now }
        var actions: [Action] = []
        guard self.callAnswered(.authorization(channel: channel, socketID: socketID), into: &actions) else { return [] }
        self.authorized(channel: channel, socketID: socketID, result: result, into: &actions)
        return actions
    }

    mutating func authorized(
        channel: ChannelName,
        socketID: String,
        result: Result<ChannelAuthorization, PusherError>,
        into actions: inout [Action]
    ) {
        let authorization: ChannelAuthorization
        switch result {
        case .success(let value):
            authorization = value
        case .failure(var error):
            error.channel = error.channel ?? channel.rawValue
            self.apply(
                self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error, at: self.now),
                into: &actions)
            return
        }
        let kind = channel.kind
        if kind == .presence && authorization.channelData == nil {
            let error = PusherError(
                .authorizationFailed, "the authorization of a presence channel has no channel_data",
                channel: channel.rawValue)
            self.apply(
                self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error, at: self.now),
                into: &actions)
            return
        }
        var key: [UInt8]?
        if kind == .privateEncrypted {
            key = authorization.sharedSecret.flatMap(self.configuration.key)
            if key == nil {
                let problem =
                    authorization.sharedSecret == nil
                    ? "has no shared_secret" : "has a shared_secret that is not base64 of 32 bytes"
                let error = PusherError(
                    .authorizationFailed, "the authorization of an encrypted channel \(problem)",
                    channel: channel.rawValue)
                self.apply(
                    self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error, at: self.now),
                    into: &actions)
                return
            }
        }
        let action = self.subscriptions.authorizationSucceeded(
            channel,
            socketID: socketID,
            authorization: authorization.auth,
            channelData: authorization.channelData
        )
        // The key is kept only once the subscribe goes out.
        if case .subscribe = action, let key {
            self.apply(self.decryption.subscribed(channel, key: key), into: &actions)
        }
        self.apply(action, into: &actions)
    }

    // MARK: The server's answers

    /// `pusher_internal:subscription_succeeded`: a presence channel's roster is rebuilt from it.
    mutating func handleSubscriptionSucceeded(_ message: PusherMessage, into actions: inout [Action]) {
        guard let name = message.channel else { return }
        let channel = ChannelName(unchecked: name)
        let action = self.subscriptions.subscriptionSucceeded(channel, at: self.now)
        if case .succeeded = action, channel.kind == .presence {
            self.resetRoster(of: channel, from: message, into: &actions)
        }
        self.apply(action, into: &actions)
    }

    /// `pusher:subscription_error`: the server refused the channel (soketi and Reverb send it).
    mutating func handleSubscriptionError(_ message: PusherMessage, into actions: inout [Action]) {
        guard let name = message.channel else { return }
        var error = Self.serverError(from: message)
        error.code = .subscriptionFailed
        error.channel = name
        for action in self.subscriptions.subscriptionFailed(ChannelName(unchecked: name), error: error, at: self.now) {
            self.apply(action, into: &actions)
        }
    }

    /// `pusher_internal:subscription_count`: how many clients subscribe to a channel that has consumers.
    mutating func handleSubscriptionCount(_ message: PusherMessage, into actions: inout [Action]) {
        guard let name = message.channel, self.consumers.channels[name] != nil else { return }
        guard let count = (try? message.parsedData())?["subscription_count"]?.intValue else {
            actions.append(.report(PusherError(.malformedMessage, "subscription_count without a count", channel: name)))
            return
        }
        actions.append(.notifySubscriptionCount(count, channel: ChannelName(unchecked: name)))
    }

    /// A `pusher:error` names no channel, but refusals of a subscription ("Existing subscription to
    /// channel X", "Invalid signature: … of socket:channel …") mention it: fails the matching
    /// subscriptions that wait for confirmation. Returns whether one matched. The message is split
    /// into words once, whatever the number of pending channels.
    mutating func failPendingSubscription(matching error: PusherError, into actions: inout [Action]) -> Bool {
        guard error.channel == nil else { return false }
        let pending = self.subscriptions.awaitingConfirmation
        guard !pending.isEmpty else { return false }
        let mentioned = Self.mentionedNames(in: error.message)
        var matched = false
        for channel in pending where mentioned.contains(Substring(channel.rawValue)) {
            var failure = error
            failure.code = .subscriptionFailed
            failure.channel = channel.rawValue
            matched = true
            for action in self.subscriptions.subscriptionFailed(channel, error: failure, at: self.now) {
                self.apply(action, into: &actions)
            }
        }
        return matched
    }

    /// Every name `message` mentions as a whole word: each run of channel-name characters, and the
    /// same run without one trailing `,` or `.` of the sentence.
    static func mentionedNames(in message: String) -> Set<Substring> {
        var names: Set<Substring> = []
        for token in message.split(whereSeparator: { !Self.isNameCharacter($0) }) {
            names.insert(token)
            if let last = token.last, last == "," || last == "." { names.insert(token.dropLast()) }
        }
        return names
    }

    /// Whether `message` names `channel` as a whole word (see ``mentionedNames(in:)``).
    static func mentions(_ message: String, channel: String) -> Bool {
        Self.mentionedNames(in: message).contains(Substring(channel))
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "_-=@,.;".contains(character))
    }

    // MARK: The machine's decisions

    /// Performs what the subscription machine decided.
    mutating func apply(_ action: SubscriptionStateMachine.Action?, into actions: inout [Action]) {
        switch action {
        case nil:
            return
        case .authorize(let channel, let socketID):
            self.authorize(channel, socketID: socketID, into: &actions)
        case .subscribe(let channel, let auth, let channelData):
            if channel.kind == .presence { self.presenceChannelData[channel] = channelData }
            self.sendOnReadyConnection(
                OutboundMessage.subscribe(channel: channel.rawValue, auth: auth, channelData: channelData),
                into: &actions)
        case .unsubscribe(let channel):
            self.dropClientEvents(of: channel, reason: "the channel was unsubscribed", into: &actions)
            self.apply(self.decryption.removed(channel), into: &actions)
            self.rosters[channel] = nil
            self.sendOnReadyConnection(OutboundMessage.unsubscribe(channel: channel.rawValue), into: &actions)
        case .succeeded(let channel, let isResubscription, let missedWindow):
            self.releaseClientEvents(of: channel, into: &actions)
            actions.append(
                .notifySubscription(
                    .succeeded(
                        channel: channel.rawValue, isResubscription: isResubscription, missedWindow: missedWindow)))
        case .retry(let channel, let error, let delay):
            // The consumers stay; everything that lived with the subscription goes.
            self.rosters[channel] = nil
            self.apply(self.decryption.removed(channel), into: &actions)
            actions.append(.notifySubscription(.failed(channel: channel.rawValue, error: error)))
            self.dropClientEvents(of: channel, reason: "the subscription failed", into: &actions)
            actions.append(.report(error))
            actions.append(.scheduleTimer(.subscriptionRetry(channel), deadline: self.now + delay))
        case .cancelRetry(let channel):
            actions.append(.cancelTimer(.subscriptionRetry(channel)))
        case .failed(let channel, let error):
            for id in self.consumers.removeChannel(channel.rawValue) {
                actions.append(.finishConsumer(id, error: error))
            }
            self.rosters[channel] = nil
            self.apply(self.decryption.removed(channel), into: &actions)
            actions.append(.consumersChanged(channel: channel))
            actions.append(.notifySubscription(.failed(channel: channel.rawValue, error: error)))
            self.dropClientEvents(of: channel, reason: "the subscription failed", into: &actions)
            actions.append(.report(error))
        }
    }
}
