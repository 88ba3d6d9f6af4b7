// SPDX-License-Identifier: MIT

import Foundation
import PusherCore
import Testing

@testable import PusherCrypto

/// The known answers of the official server library (../shared/vectors, copied into
/// Tests/PusherChannelsServerTests/Vectors) through the Swift secretbox explicitly: every encrypted
/// event, trigger and webhook opens to its plaintext, sealing with its nonce gives its ciphertext byte
/// for byte, and the altered one is refused.
@Suite("Swift secretbox: the official vectors")
struct SecretBoxVectorTests {
    /// One sealed payload of the vectors.
    struct Sealed: CustomTestStringConvertible, Sendable {
        var name: String
        var key: [UInt8]
        var nonce: [UInt8]
        var ciphertext: [UInt8]
        /// Nil for a box that must not open.
        var plaintext: String?
        var testDescription: String { self.name }
    }

    static let vectorsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PusherChannelsServerTests/Vectors")

    static func json(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: vectorsDirectory.appendingPathComponent(file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func bytes(base64 text: Any?) throws -> [UInt8] {
        let text = try #require(text as? String)
        return Array(try #require(Data(base64Encoded: text)))
    }

    /// Every sealed payload of both vector files.
    static func sealed() throws -> [Sealed] {
        var sealed: [Sealed] = []
        let official = try json("pusher-official.json")
        for case let event as [String: Any] in try #require(official["encrypted_events"] as? [Any]) {
            sealed.append(
                Sealed(
                    name: "official event \(event["source"] ?? "")", key: try bytes(base64: event["shared_secret_b64"]),
                    nonce: try bytes(base64: event["nonce_b64"]),
                    ciphertext: try bytes(base64: event["ciphertext_b64"]),
                    plaintext: try #require(event["plaintext"] as? String)))
        }
        for case let event as [String: Any] in try #require(official["encrypted_events_must_fail"] as? [Any]) {
            sealed.append(
                Sealed(
                    name: "official failure \(event["why"] ?? "")", key: try bytes(base64: event["shared_secret_b64"]),
                    nonce: try bytes(base64: event["nonce_b64"]),
                    ciphertext: try bytes(base64: event["ciphertext_b64"]),
                    plaintext: nil))
        }
        let api = try json("pusher-http-api.json")
        var keys: [String: [UInt8]] = [:]
        for case let secret as [String: Any] in try #require(api["shared_secrets"] as? [Any]) {
            keys[try #require(secret["channel_name"] as? String)] = try bytes(base64: secret["shared_secret_b64"])
        }
        for case let request as [String: Any] in try #require(api["encrypted_requests"] as? [Any]) {
            let channel = try #require(request["channel"] as? String)
            sealed.append(
                Sealed(
                    name: "HTTP API \(request["id"] ?? "")", key: try #require(keys[channel]),
                    nonce: try bytes(base64: request["nonce_b64"]),
                    ciphertext: try bytes(base64: request["ciphertext_b64"]),
                    plaintext: try #require(request["plaintext"] as? String)))
        }
        let webhooks = try #require(api["webhooks"] as? [String: Any])
        for case let webhook as [String: Any] in try #require(webhooks["valid"] as? [Any]) {
            guard let plaintext = webhook["decrypted_data"] as? String else { continue }
            let event = try #require((webhook["events"] as? [[String: Any]])?.first)
            let data = try #require((event["data"] as? String)?.data(using: .utf8))
            let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let channel = try #require(webhook["channel"] as? String)
            sealed.append(
                Sealed(
                    name: "webhook \(webhook["id"] ?? "")", key: try #require(keys[channel]),
                    nonce: try bytes(base64: fields["nonce"]), ciphertext: try bytes(base64: fields["ciphertext"]),
                    plaintext: plaintext))
        }
        return sealed
    }

    @Test("the vectors are all there")
    func count() throws {
        let sealed = try Self.sealed()
        #expect(sealed.count == 7)
        #expect(sealed.filter { $0.plaintext == nil }.count == 1)
    }

    @Test("each opens to its plaintext, or is refused", arguments: try Self.sealed())
    func opens(_ vector: Sealed) {
        let opened = Boxes.swiftOpen(vector.ciphertext, nonce: vector.nonce, key: vector.key)
        #expect(opened == vector.plaintext.map { Array($0.utf8) })
    }

    @Test("sealing a plaintext with its nonce gives its ciphertext", arguments: try Self.sealed())
    func seals(_ vector: Sealed) {
        guard let plaintext = vector.plaintext else { return }
        #expect(Boxes.swiftSeal(Array(plaintext.utf8), nonce: vector.nonce, key: vector.key) == vector.ciphertext)
    }

    @Test("through SecretBox and EncryptedPayload with the Swift backend forced", arguments: try Self.sealed())
    func throughSecretBox(_ vector: Sealed) {
        SecretBox.$forcedBackend.withValue(.swift) {
            #expect(SecretBox.backend == .swift)
            let expected: DecryptionStateMachine.Opened = vector.plaintext.map { .plaintext($0) } ?? .wrongKey
            #expect(SecretBox.openText(vector.ciphertext, nonce: vector.nonce, key: vector.key) == expected)
            #expect(
                SecretBox.open(vector.ciphertext, nonce: vector.nonce, key: vector.key)
                    == vector.plaintext.map { Array($0.utf8) })
            let data =
                #"{"nonce":""# + Data(vector.nonce).base64EncodedString() + #"","ciphertext":""#
                + Data(vector.ciphertext).base64EncodedString() + #""}"#
            let message = PusherMessage(event: "e", channel: "private-encrypted-my-channel", data: data)
            #expect(EncryptedPayload.open(message, key: vector.key) == expected)
            if let plaintext = vector.plaintext {
                #expect(EncryptedPayload.seal(plaintext, key: vector.key, nonce: vector.nonce) == data)
            }
        }
    }

    /// RFC 8439 §2.5.2.
    @Test("Poly1305: the RFC 8439 example")
    func rfc8439() {
        let key: [UInt8] = [
            0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33, 0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8,
            0x01, 0x03, 0x80, 0x8a, 0xfb, 0x0d, 0xb2, 0xfd, 0x4a, 0xbf, 0xf6, 0xaf, 0x41, 0x49, 0xf5, 0x1b,
        ]
        let tag: [UInt8] = [
            0xa8, 0x06, 0x1d, 0xc1, 0x30, 0x51, 0x36, 0xc6, 0xc2, 0x2b, 0x8b, 0xaf, 0x0c, 0x01, 0x27, 0xa9,
        ]
        #expect(Boxes.poly1305(Array("Cryptographic Forum Research Group".utf8), key: key) == tag)
    }
}
