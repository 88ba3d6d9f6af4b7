// SPDX-License-Identifier: MIT

import Foundation

#if canImport(COpenSSLCrypto)
import COpenSSLCrypto
#elseif canImport(CryptoKit)
import CryptoKit
#endif
#if canImport(CSodium)
import CSodium
#endif

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
        guard let key = Data(base64Encoded: masterKey), key.count == 32 else {
            throw PusherError(
                .invalidConfiguration, "the encryption master key must be base64 of 32 bytes", channel: channel)
        }
        return Data(SHA256Digest.hash(Array(channel.utf8) + Array(key))).base64EncodedString()
    }
}
