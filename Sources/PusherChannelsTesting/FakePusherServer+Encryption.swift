// SPDX-License-Identifier: MIT

import PusherChannels

// The encryption master key and the shared secrets of private-encrypted channels.
extension FakePusherServer {
    /// Replaces the encryption master key: from now on, encrypted events are sealed with the new
    /// channel secrets, and the auth endpoint hands those out (clients holding old secrets must
    /// reload).
    public func rotateEncryptionMasterKey(_ masterKey: String) {
        self.masterKey = masterKey
    }

    /// The shared secret of `channel` under the current master key (what the auth endpoint returns).
    public func sharedSecret(for channel: String) -> String? {
        self.masterKey.flatMap { try? EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: $0) }
    }
}
