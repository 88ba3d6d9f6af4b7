// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// Performs what the decryption machine decided.
    mutating func apply(_ decryptionActions: [DecryptionStateMachine.Action], into actions: inout [Action]) {
        for action in decryptionActions {
            switch action {
            case .deliver(let message, let plaintext):
                guard let channel = message.channel, let consumers = self.consumers.channels[channel] else { continue }
                Self.fanOut(
                    ChannelEvent(message, channel: channel, data: plaintext), to: consumers,
                    allChannels: self.consumers.all, into: &actions)
            case .reload(let channel):
                guard let socketID = self.connection.publicState.socketID else {
                    self.apply(
                        self.decryption.reloadFailed(
                            channel, message: "not connected", at: self.now, open: self.configuration.open),
                        into: &actions)
                    continue
                }
                // Signed in process: the key comes back at once, with no call and no timer.
                if let signed = self.configuration.localAuthorization?(socketID, channel.rawValue) {
                    self.keyReloadAnswered(channel: channel, socketID: socketID, result: signed, into: &actions)
                    continue
                }
                let call = TimerID.keyReload(channel: channel, socketID: socketID)
                self.startCall(call, .reloadKey(channel: channel, socketID: socketID), into: &actions)
            case .report(let failure):
                actions.append(.reportDecryptionFailure(failure))
            }
        }
    }

    /// The authorizer answered a key reload of `channel`. An answer for an older socket is stale:
    /// the channel was subscribed again with a fresh key since; the answer of a call that timed out
    /// is ignored.
    package mutating func keyReloaded(
        channel: ChannelName, socketID: String, result: Result<ChannelAuthorization, PusherError>, at now: Duration
    ) -> [Action] {
        self.now = now
        var actions: [Action] = []
        guard self.callAnswered(.keyReload(channel: channel, socketID: socketID), into: &actions) else { return [] }
        self.keyReloadAnswered(channel: channel, socketID: socketID, result: result, into: &actions)
        return actions
    }

    /// Hands the outcome of a key reload to the decryption machine.
    mutating func keyReloadAnswered(
        channel: ChannelName, socketID: String, result: Result<ChannelAuthorization, PusherError>,
        into actions: inout [Action]
    ) {
        guard self.connection.publicState.socketID == socketID else { return }
        let open = self.configuration.open
        switch result {
        case .success(let authorization):
            guard let key = authorization.sharedSecret.flatMap(self.configuration.key) else {
                self.apply(
                    self.decryption.reloadFailed(
                        channel, message: "the reloaded authorization has no usable shared_secret", at: self.now,
                        open: open), into: &actions)
                return
            }
            self.apply(self.decryption.reloadSucceeded(channel, key: key, at: self.now, open: open), into: &actions)
        case .failure(let error):
            self.apply(
                self.decryption.reloadFailed(
                    channel, message: "the key reload failed: \(error.message)", at: self.now, open: open),
                into: &actions
            )
        }
    }
}
