// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Authorizes `channel` for `socketID`: with the authorization passed when subscribing if it was
    /// made for this socket id (used once, never resent), else through the authorizer, else fails
    /// the subscription.
    mutating func authorize(_ channel: String, socketID: String, to actions: inout [Action]) {
        if let provided = self.providedAuthorizations.removeValue(forKey: channel), provided.socketID == socketID {
            self.authorizationCompleted(
                channel: channel, socketID: socketID, result: .success(provided.authorization), to: &actions)
            return
        }
        guard self.configuration.hasAuthorizer else {
            let error = PusherError(
                .authorizationRequired,
                "no authorization for socket \(socketID): a provided authorization is good for one connection only; "
                    + "set PusherClientOptions.authorizer to subscribe again after a reconnect",
                channel: channel
            )
            self.apply(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error), to: &actions)
            return
        }
        let call = TimerID.authorization(channel: channel, socketID: socketID)
        self.startCall(call, .authorize(channel: channel, socketID: socketID), to: &actions)
    }

    /// The authorizer answered for `channel` on `socketID` (late answers for an older socket, a
    /// channel that is gone, or a call that timed out are ignored).
    package mutating func authorizationCompleted(
        channel: String, socketID: String, result: Result<ChannelAuthorization, PusherError>
    ) -> [Action] {
        var actions: [Action] = []
        guard self.callAnswered(.authorization(channel: channel, socketID: socketID), to: &actions) else { return [] }
        self.authorizationCompleted(channel: channel, socketID: socketID, result: result, to: &actions)
        return actions
    }

    mutating func authorizationCompleted(
        channel: String,
        socketID: String,
        result: Result<ChannelAuthorization, PusherError>,
        to actions: inout [Action]
    ) {
        let authorization: ChannelAuthorization
        switch result {
        case .success(let value):
            authorization = value
        case .failure(var error):
            error.channel = error.channel ?? channel
            self.apply(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error), to: &actions)
            return
        }
        let kind = ChannelName.kind(of: channel)
        if kind == .presence && authorization.channelData == nil {
            let error = PusherError(
                .authorizationFailed, "the authorization of a presence channel has no channel_data", channel: channel)
            self.apply(self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error), to: &actions)
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
                    .authorizationFailed, "the authorization of an encrypted channel \(problem)", channel: channel)
                self.apply(
                    self.subscriptions.authorizationFailed(channel, socketID: socketID, error: error), to: &actions)
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
        if case .subscribe = action, let key { self.apply(self.decryption.subscribed(channel, key: key), to: &actions) }
        self.apply(action, to: &actions)
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
        for channel in pending where mentioned.contains(Substring(channel)) {
            var failure = error
            failure.code = .subscriptionFailed
            failure.channel = channel
            matched = true
            for action in self.subscriptions.subscriptionFailed(channel, error: failure) {
                self.apply(action, to: &actions)
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
}
