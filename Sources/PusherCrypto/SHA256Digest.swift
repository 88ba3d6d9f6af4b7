// SPDX-License-Identifier: MIT

#if canImport(COpenSSLCrypto)
import COpenSSLCrypto
#elseif canImport(CryptoKit)
import CryptoKit
#endif

/// SHA-256 from the system's libcrypto on Linux and CryptoKit on Apple platforms.
package enum SHA256Digest {
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(COpenSSLCrypto)
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                // SHA256 returns its output pointer; it cannot fail for valid buffers.
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
        #elseif canImport(CryptoKit)
        return Array(SHA256.hash(data: bytes))
        #else
        #error("SHA-256 needs libcrypto (Linux) or CryptoKit (Apple platforms)")
        #endif
    }
}
