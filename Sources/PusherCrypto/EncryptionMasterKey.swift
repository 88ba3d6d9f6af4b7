// SPDX-License-Identifier: MIT

import ExtrasBase64
import PusherCore

/// The shared secrets of private-encrypted channels, as the official server libraries derive them.
public enum EncryptionMasterKey {
    /// The channel's 32-byte key: SHA-256 of the channel name's UTF-8 bytes followed by the 32-byte
    /// master key, as base64 (the `shared_secret` of an authorization).
    ///
    /// - Parameters:
    ///   - channel: The private-encrypted channel's name.
    ///   - masterKey: The app's encryption master key, base64 of 32 bytes.
    /// - Throws: ``PusherError`` `invalidConfiguration` when the master key is not base64 of 32 bytes.
    public static func sharedSecret(forChannel channel: String, masterKey: String) throws(PusherError) -> String {
        guard let key = Self.bytes(ofMasterKey: masterKey) else {
            throw PusherError(
                .invalidConfiguration, "the encryption master key must be base64 of 32 bytes", channel: channel)
        }
        return Self.sharedSecret(forChannel: channel, masterKey: key)
    }

    /// The channel's `shared_secret` (base64 of its key) for a master key's 32 bytes.
    package static func sharedSecret(forChannel channel: String, masterKey: [UInt8]) -> String {
        String(base64Encoding: Self.channelKey(forChannel: channel, masterKey: masterKey))
    }

    /// The 32 bytes of a base64 master key, or nil when it is not base64 of exactly 32 bytes.
    package static func bytes(ofMasterKey masterKey: String) -> [UInt8]? {
        guard let key = try? Base64.decode(string: masterKey), key.count == SecretBox.keyLength else { return nil }
        return key
    }

    /// The channel's secretbox key: SHA-256(channel name UTF-8 ‖ the master key's 32 bytes).
    package static func channelKey(forChannel channel: String, masterKey: [UInt8]) -> [UInt8] {
        SHA256Digest.hash(Array(channel.utf8) + masterKey)
    }
}
