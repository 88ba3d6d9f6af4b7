// SPDX-License-Identifier: MIT

import Foundation
import PusherCore
import Testing

@testable import PusherCrypto

/// Which implementation the process uses, and the task-local override the tests use: a forced backend
/// is seen by its task and the tasks it creates, never by the tests running beside it.
@Suite("Secretbox backends")
struct SecretBoxBackendTests {
    static let key = [UInt8](repeating: 7, count: 32)
    static let nonce = [UInt8](repeating: 9, count: 24)

    @Test("libsodium on Linux unless PUSHER_CRYPTO=swift; Swift elsewhere")
    func processBackend() {
        #if canImport(CSodium)
        let expected: SecretBox.Backend =
            ProcessInfo.processInfo.environment["PUSHER_CRYPTO"] == "swift" ? .swift : .libsodium
        #else
        let expected = SecretBox.Backend.swift
        #endif
        #expect(SecretBox.processBackend == expected)
        #expect(SecretBox.backend == expected)
        #expect(SecretBox.isAvailable)
    }

    @Test("with no backend nothing seals or opens, and encryption is unavailable")
    func unavailable() throws {
        let sealed = try #require(SecretBox.seal(Array("hi".utf8), nonce: Self.nonce, key: Self.key))
        let data = try #require(EncryptedPayload.seal("hi", key: Self.key, nonce: Self.nonce))
        SecretBox.$forcedBackend.withValue(.unavailable) {
            #expect(!SecretBox.isAvailable)
            #expect(SecretBox.seal(Array("hi".utf8), nonce: Self.nonce, key: Self.key) == nil)
            #expect(SecretBox.open(sealed, nonce: Self.nonce, key: Self.key) == nil)
            #expect(SecretBox.openText(sealed, nonce: Self.nonce, key: Self.key) == .wrongKey)
            #expect(EncryptedPayload.seal("hi", key: Self.key) == nil)
            #expect(EncryptedPayload.open(PusherMessage(event: "e", data: data), key: Self.key) == .wrongKey)
            #expect(SecretBox.randomNonce().count == 24)
        }
        #expect(SecretBox.openText(sealed, nonce: Self.nonce, key: Self.key) == .plaintext("hi"))
    }

    @Test("a forced backend reaches child tasks, not tasks outside its scope")
    func scoped() async {
        let process = SecretBox.processBackend
        await SecretBox.$forcedBackend.withValue(.unavailable) {
            #expect(SecretBox.backend == .unavailable)
            async let child = SecretBox.backend
            #expect(await child == .unavailable)
            let detached = await Task.detached { SecretBox.backend }.value
            #expect(detached == process)
        }
        #expect(SecretBox.backend == process)
    }

    @Test("each backend opens what the other sealed, through SecretBox")
    func acrossBackends() throws {
        #if canImport(CSodium)
        let backends: [SecretBox.Backend] = [.swift, .libsodium]
        #else
        let backends: [SecretBox.Backend] = [.swift]
        #endif
        var generator = SeededGenerator(seed: 5)
        for sealer in backends {
            for opener in backends {
                for length in [0, 1, 32, 33, 100, 1000] {
                    let message = generator.bytes(length)
                    let nonce = SecretBox.$forcedBackend.withValue(sealer) { SecretBox.randomNonce() }
                    let box = try #require(
                        SecretBox.$forcedBackend.withValue(sealer) {
                            SecretBox.seal(message, nonce: nonce, key: Self.key)
                        })
                    let opened = SecretBox.$forcedBackend.withValue(opener) {
                        SecretBox.open(box, nonce: nonce, key: Self.key)
                    }
                    #expect(opened == message, "sealed by \(sealer), opened by \(opener), \(length) bytes")
                }
            }
        }
    }

    @Test("random nonces differ, from either generator")
    func randomNonces() {
        for backend in [SecretBox.Backend.swift, SecretBox.processBackend] {
            let nonces = SecretBox.$forcedBackend.withValue(backend) { (0..<16).map { _ in SecretBox.randomNonce() } }
            #expect(Set(nonces).count == 16)
            #expect(nonces.allSatisfy { $0.count == SecretBox.nonceLength })
        }
    }

    @Test("wrong sizes are refused, not trapped on", arguments: [SecretBox.Backend.swift, SecretBox.processBackend])
    func wrongSizes(backend: SecretBox.Backend) {
        SecretBox.$forcedBackend.withValue(backend) {
            #expect(SecretBox.seal([1], nonce: Self.nonce, key: [1, 2]) == nil)
            #expect(SecretBox.seal([1], nonce: [1], key: Self.key) == nil)
            #expect(SecretBox.open([UInt8](repeating: 0, count: 15), nonce: Self.nonce, key: Self.key) == nil)
            #expect(SecretBox.openText([UInt8](repeating: 0, count: 40), nonce: [0], key: Self.key) == .wrongKey)
        }
    }
}
