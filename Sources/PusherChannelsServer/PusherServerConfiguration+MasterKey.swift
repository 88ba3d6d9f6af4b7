// SPDX-License-Identifier: MIT

import PusherCrypto

extension PusherServerConfiguration {
    /// The encryption master key of private-encrypted channels: exactly 32 bytes.
    ///
    /// Each channel's key is SHA-256 of the channel name's UTF-8 bytes followed by these 32 bytes,
    /// as in every official server library and `pusher-js`. The bytes are never printed.
    ///
    /// ```swift
    /// let masterKey = try PusherServerConfiguration.MasterKey(base64: environment["PUSHER_MASTER_KEY"] ?? "")
    /// ```
    public struct MasterKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The 32 bytes.
        package let bytes: [UInt8]

        /// A master key from its base64 text (the form the dashboard and `PUSHER_MASTER_KEY` use).
        ///
        /// - Parameter base64: Base64 of exactly 32 bytes.
        /// - Throws: ``PusherServerError`` `invalidConfiguration` when the text is not base64 of 32 bytes.
        public init(base64: String) throws(PusherServerError) {
            guard let bytes = EncryptionMasterKey.bytes(ofMasterKey: base64) else {
                throw PusherServerError(.invalidConfiguration, "the encryption master key must be base64 of 32 bytes")
            }
            self.bytes = bytes
        }

        /// A master key from its raw bytes.
        ///
        /// - Parameter bytes: Exactly 32 bytes.
        /// - Throws: ``PusherServerError`` `invalidConfiguration` when there are not 32 bytes.
        public init(bytes: [UInt8]) throws(PusherServerError) {
            guard bytes.count == 32 else {
                throw PusherServerError(
                    .invalidConfiguration, "the encryption master key must be 32 bytes, not \(bytes.count)")
            }
            self.bytes = bytes
        }

        /// The secretbox key of `channel`.
        func channelKey(forChannel channel: String) -> [UInt8] {
            EncryptionMasterKey.channelKey(forChannel: channel, masterKey: self.bytes)
        }

        /// Never the key: `MasterKey(32 bytes, redacted)`.
        public var description: String { "MasterKey(32 bytes, redacted)" }

        /// The same as ``description``.
        public var debugDescription: String { self.description }

        /// No children: `dump` shows nothing of the key.
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }
}
