// SPDX-License-Identifier: MIT

import PusherCore

extension PusherClient {
    /// Events of private-encrypted channels that could not be delivered (malformed payloads, keys
    /// that do not open them even after a reload, failed reloads), for one channel or (with `nil`)
    /// for all. The other events of the channel keep flowing. Never carries keys or plaintext.
    public nonisolated func decryptionFailures(on channel: String? = nil) -> PusherSequence<DecryptionFailure> {
        PusherSequence { [observers] in observers.observeDecryptionFailures(channel: channel) }
    }
}
