// SPDX-License-Identifier: MIT

#if canImport(COpenSSLCrypto)
import COpenSSLCrypto
#elseif canImport(CryptoKit)
import CryptoKit
#endif

/// MD5, for the HTTP API's `body_md5` (a checksum the protocol requires, not a security measure),
/// from the system's libcrypto on Linux and CryptoKit on Apple platforms.
package enum MD5Digest {
    /// The lowercase hex MD5 of `bytes`.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        #if canImport(COpenSSLCrypto)
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        let result = input.withUnsafeBufferPointer { inputBuffer in
            digest.withUnsafeMutableBufferPointer { output in
                // The one-shot EVP digest: MD5() itself is deprecated in OpenSSL 3.
                EVP_Digest(inputBuffer.baseAddress, inputBuffer.count, output.baseAddress, &length, EVP_md5(), nil)
            }
        }
        // EVP_Digest fails only on invalid arguments or an allocation failure.
        precondition(result == 1 && length == 16, "MD5 failed")
        return Hex.lowercase(digest)
        #elseif canImport(CryptoKit)
        return Hex.lowercase(Insecure.MD5.hash(data: input))
        #else
        #error("MD5 needs libcrypto (Linux) or CryptoKit (Apple platforms)")
        #endif
    }
}
