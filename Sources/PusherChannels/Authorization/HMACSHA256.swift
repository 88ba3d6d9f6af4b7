// SPDX-License-Identifier: MIT

#if canImport(COpenSSLCrypto)
import COpenSSLCrypto
#elseif canImport(CryptoKit)
import CryptoKit
#endif

/// HMAC-SHA256 as lowercase hex, from the system's libcrypto on Linux and CryptoKit on Apple
/// platforms.
enum HMACSHA256 {
    static func hex(key: String, message: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        #if canImport(COpenSSLCrypto)
        var length: UInt32 = 0
        let keyBytes = Array(key.utf8)
        let messageBytes = Array(message.utf8)
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
        #elseif canImport(CryptoKit)
        let code = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(key.utf8)))
        digest = Array(code)
        #else
        #error("HMAC-SHA256 needs libcrypto (Linux) or CryptoKit (Apple platforms)")
        #endif
        let hexDigits = Array("0123456789abcdef".utf8)
        var output = [UInt8]()
        output.reserveCapacity(64)
        for byte in digest {
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
