// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// Events of private-encrypted channels that could not be delivered (malformed payloads, keys
    /// that do not open them even after a reload, failed reloads), for one channel or (with `nil`)
    /// for all. The other events of the channel keep flowing. Never carries keys or plaintext.
    public nonisolated func decryptionFailures(on channel: String? = nil) -> PusherSequence<DecryptionFailure> {
        PusherSequence { [observers] in observers.observeDecryptionFailures(channel: channel) }
    }

    func encryptedEventReceived(_ message: PusherMessage) {
        self.perform(self.decryption.received(message, open: EncryptedPayload.open))
    }

    func perform(_ actions: [DecryptionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .deliver(let message, let plaintext):
                guard let channel = message.channel else { continue }
                self.deliver(ChannelEvent(channel: channel, name: message.event, data: plaintext, userID: message.userID))
            case .reload(let channel):
                guard let socketID = self.connection.publicState.socketID else {
                    self.perform(self.decryption.reloadFailed(channel, message: "not connected", open: EncryptedPayload.open))
                    continue
                }
                self.log(.debug, "reloading the key of an encrypted channel", ["pusher.channel": "\(channel)"])
                self.commands.yield(.reloadKey(channel: channel, socketID: socketID))
            case .report(let failure):
                self.log(.debug, "decryption failed", ["pusher.channel": "\(failure.channel)", "pusher.event": "\(failure.event)"])
                self.observers.report(failure)
            }
        }
    }

    /// The authorizer answered a key reload of `channel` (see ``runAuthorization(channel:socketID:isKeyReload:)``).
    func keyReloaded(channel: String, socketID: String, result: Result<ChannelAuthorization, PusherError>) {
        // After a reconnect the channel was subscribed again with a fresh key; this answer is stale.
        guard self.connection.publicState.socketID == socketID else { return }
        switch result {
        case .success(let authorization):
            guard let key = authorization.sharedSecret.flatMap(EncryptedPayload.key(fromSharedSecret:)) else {
                self.perform(self.decryption.reloadFailed(channel, message: "the reloaded authorization has no usable shared_secret", open: EncryptedPayload.open))
                return
            }
            self.perform(self.decryption.reloadSucceeded(channel, key: key, open: EncryptedPayload.open))
        case .failure(let error):
            self.perform(self.decryption.reloadFailed(channel, message: "the key reload failed: \(error.message)", open: EncryptedPayload.open))
        }
    }
}
