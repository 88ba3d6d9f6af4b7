// SPDX-License-Identifier: MIT

import Foundation
import PusherCore
import Testing

@testable import PusherChannels

/// Known answers of the official Pusher server library for Python (pusher 3.3.4, PyNaCl 1.6.2), the
/// `encrypted_channels`, `encrypted_events` and `encrypted_events_must_fail` entries of
/// ../shared/vectors/pusher-official.json, copied here so the tests run anywhere; plus the vector of
/// the protocol reference (§1.15).
@Suite("Encryption matches the official server library")
struct EncryptionVectorTests {
    static let key = "278d425bdf160c739803"
    static let secret = "7ad3773142a6692b25b8"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let foobarSecret = "g3Au6SZ+UCU+IMfFsFva0rq+Gi4tzSHR6WCcWZbS9sY="

    @Test(
        "shared secrets are SHA-256 of the channel name and the master key",
        arguments: [
            ("private-encrypted-foobar", foobarSecret),
            ("private-encrypted-test", "5sjH9S2/qGAQKjEQMBUG9bIGNd87K7ZV9SHg2rgKilc="),
        ]
    )
    func sharedSecrets(channel: String, expected: String) throws {
        #expect(try EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: Self.masterKey) == expected)
    }

    @Test("in-process signing of an encrypted channel gives the official auth and shared secret")
    func signingAuthorizer() async throws {
        let authorizer = ChannelAuthorizer.signing(key: Self.key, secret: Self.secret, masterKey: Self.masterKey)
        let authorization = try await authorizer.authorize("1234.1234", "private-encrypted-foobar")
        #expect(
            authorization.auth
                == "278d425bdf160c739803:e6a18892d037c5d5e76a2265df4f086ffc38631605530dfd214aa5bff495f533")
        #expect(authorization.sharedSecret == Self.foobarSecret)
        #expect(authorization.channelData == nil)
    }

    @Test("a master key that is not base64 of 32 bytes is a typed error", arguments: ["not base64!", "AAECAw=="])
    func badMasterKey(masterKey: String) {
        #expect(throws: PusherError.self) {
            try EncryptionMasterKey.sharedSecret(forChannel: "private-encrypted-x", masterKey: masterKey)
        }
    }

    static func message(_ wireData: String) -> PusherMessage {
        PusherMessage(event: "update", channel: "private-encrypted-foobar", data: wireData)
    }

    static var foobarKey: [UInt8] { EncryptedPayload.key(fromSharedSecret: foobarSecret)! }

    @Test(
        "official encrypted events open to their plaintext",
        arguments: [
            (
                #"{"nonce": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX", "ciphertext": "wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#,
                #"{"message": "hello world"}"#
            ),
            (
                #"{"nonce": "q6urq6urq6urq6urq6urq6urq6urq6ur", "ciphertext": "TUuzQ89hn7vNJ1KuEJLfucQiIeotjGzLl8LtGBllW+aPoOAjyXXEmg=="}"#,
                "a plain string, not JSON"
            ),
        ]
    )
    func officialEvents(wireData: String, plaintext: String) {
        #expect(EncryptedPayload.open(Self.message(wireData), key: Self.foobarKey) == .plaintext(plaintext))
    }

    @Test("the reference vector (§1.15) opens")
    func referenceVector() throws {
        let key = try #require(EncryptedPayload.key(fromSharedSecret: "5sjH9S2/qGAQKjEQMBUG9bIGNd87K7ZV9SHg2rgKilc="))
        let data =
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"zVLX1IBoz1EM9B1SiwTJwfwphXiEP/V3l2HCRzoXzg7f"}"#
        #expect(
            EncryptedPayload.open(PusherMessage(event: "e", channel: "private-encrypted-test", data: data), key: key)
                == .plaintext(#"{"hello":"world"}"#))
    }

    @Test("a flipped ciphertext byte does not open (official must-fail entry)")
    func forgedCiphertext() {
        let data =
            #"{"nonce": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX", "ciphertext": "wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2f"}"#
        #expect(EncryptedPayload.open(Self.message(data), key: Self.foobarKey) == .wrongKey)
    }

    @Test(
        "malformed payloads are told apart from wrong keys",
        arguments: [
            "not json",
            #"{"ciphertext":"AAAA"}"#,
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX"}"#,
            #"{"nonce":"%%%","ciphertext":"wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#,
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"@@@"}"#,
            #"{"nonce":"AAECAw==","ciphertext":"wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#,
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"AAECAwQFBgc="}"#,
        ]
    )
    func malformed(wireData: String) {
        guard case .malformed = EncryptedPayload.open(Self.message(wireData), key: Self.foobarKey) else {
            Issue.record("expected a malformed payload for \(wireData)")
            return
        }
    }

    @Test("sealing and opening round-trip; another key does not open")
    func roundTrip() throws {
        let sealed = try #require(EncryptedPayload.seal("ünïcödé {\"a\":1}", key: Self.foobarKey))
        #expect(EncryptedPayload.open(Self.message(sealed), key: Self.foobarKey) == .plaintext("ünïcödé {\"a\":1}"))
        let other = [UInt8](repeating: 7, count: 32)
        #expect(EncryptedPayload.open(Self.message(sealed), key: other) == .wrongKey)
    }

    @Test("a plaintext opens as text when it is UTF-8, wherever its first byte above ASCII is; else it is malformed")
    func plaintextUTF8() throws {
        let nonce = [UInt8](repeating: 3, count: SecretBox.nonceLength)
        for length in 1...20 {
            // At each place, a byte that no UTF-8 text has, or a two-byte character where it fits.
            for place in 0..<length {
                for valid in [false, true] where !valid || place + 1 < length {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if valid { (text[place], text[place + 1]) = (0xC3, 0xA9) } else { text[place] = 0xFF }
                    let sealed = try #require(SecretBox.seal(text, nonce: nonce, key: Self.foobarKey))
                    let opened = SecretBox.openText(sealed, nonce: nonce, key: Self.foobarKey)
                    if valid {
                        #expect(opened == .plaintext(String(decoding: text, as: UTF8.self)), "\(length) \(place)")
                    } else {
                        #expect(opened == .malformed("the plaintext is not UTF-8"), "\(length) \(place)")
                    }
                }
            }
            let ascii = [UInt8](repeating: UInt8(ascii: "z"), count: length)
            let sealed = try #require(SecretBox.seal(ascii, nonce: nonce, key: Self.foobarKey))
            #expect(
                SecretBox.openText(sealed, nonce: nonce, key: Self.foobarKey)
                    == .plaintext(String(repeating: "z", count: length)))
        }
    }

    @Test(
        "escaped fields open as their unescaped text (PHP's json_encode writes / as \\/); the last field of a name counts"
    )
    func escapedAndRepeatedFields() {
        let escaped =
            #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"wju45e1zT9xCK7bH\/tZ3GksGJzgoj596PYEg0gMg5EbE\/Vl6l74SIU2e"}"#
        #expect(
            EncryptedPayload.open(Self.message(escaped), key: Self.foobarKey)
                == .plaintext(#"{"message": "hello world"}"#))
        let repeated =
            #"{"nonce":"%%%","ciphertext":"@@@","nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"wju45e1zT9xCK7bH/tZ3GksGJzgoj596PYEg0gMg5EbE/Vl6l74SIU2e"}"#
        #expect(
            EncryptedPayload.open(Self.message(repeated), key: Self.foobarKey)
                == .plaintext(#"{"message": "hello world"}"#))
    }

    @Test(
        "a malformed payload says what is wrong with it",
        arguments: [
            (#"{"nonce":"%%%","ciphertext":"AAAA"}"#, "the nonce is not valid base64"),
            (
                #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"@@@@"}"#,
                "the ciphertext is not valid base64"
            ),
            (#"{"nonce":"AAECAw==","ciphertext":"AAAA"}"#, "the nonce has 4 bytes instead of 24"),
            (#"{"nonce":"","ciphertext":"AAAA"}"#, "the nonce has 0 bytes instead of 24"),
            (
                #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"AAECAwQFBgc="}"#,
                "the ciphertext has 8 bytes, fewer than the 16-byte MAC"
            ),
            (
                #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":""}"#,
                "the ciphertext has 0 bytes, fewer than the 16-byte MAC"
            ),
        ]
    )
    func malformedReasons(wireData: String, reason: String) {
        #expect(EncryptedPayload.open(Self.message(wireData), key: Self.foobarKey) == .malformed(reason))
    }
}
