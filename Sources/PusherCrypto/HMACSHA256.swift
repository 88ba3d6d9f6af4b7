// SPDX-License-Identifier: MIT

#if canImport(COpenSSLCrypto)
import COpenSSLCrypto
#elseif canImport(CryptoKit)
import CryptoKit
#endif

/// HMAC-SHA256, from the system's libcrypto on Linux and CryptoKit on Apple platforms.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func digest(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let keyBytes = Array(key)
        let messageBytes = Array(message)
        #if canImport(COpenSSLCrypto)
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                digest.withUnsafeMutableBufferPointer { digestBuffer in
                    HMAC(
                        EVP_sha256(),
                        keyBuffer.baseAddress,
                        Int32(keyBuffer.count),
                        messageBuffer.baseAddress,
                        messageBuffer.count,
                        digestBuffer.baseAddress,
                        &length
                    )
                }
            }
        }
        // HMAC only fails on invalid arguments (a null digest type or buffer), which cannot happen here.
        precondition(result != nil && length == 32, "HMAC-SHA256 failed")
        return digest
        #elseif canImport(CryptoKit)
        return Array(HMAC<SHA256>.authenticationCode(for: messageBytes, using: SymmetricKey(data: keyBytes)))
        #else
        #error("HMAC-SHA256 needs libcrypto (Linux) or CryptoKit (Apple platforms)")
        #endif
    }

    /// The authentication code of `message` under `key` (both as UTF-8), as lowercase hex.
    package static func hex(key: String, message: String) -> String {
        Hex.lowercase(self.digest(key: key.utf8, message: message.utf8))
    }

    /// The authentication code of the raw bytes `message` under `key` (UTF-8), as lowercase hex.
    package static func hex(key: String, message: some Collection<UInt8>) -> String {
        Hex.lowercase(self.digest(key: key.utf8, message: message))
    }
}
