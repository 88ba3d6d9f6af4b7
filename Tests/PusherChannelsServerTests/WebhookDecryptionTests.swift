// SPDX-License-Identifier: MIT

import PusherChannelsServer
import PusherCrypto
import Testing

/// Client events of private-encrypted channels, decrypted with the key derived from the master key.
@Suite struct WebhookDecryptionTests {
    static let credentials = [WebhookCredential(key: Vectors.key, secret: Vectors.secret)]
    let masterKey: PusherServerConfiguration.MasterKey
    let masterKeyBytes: [UInt8]
    let verifier: WebhookVerifier

    init() throws {
        self.masterKey = try PusherServerConfiguration.MasterKey(base64: Vectors.masterKeyBase64)
        self.masterKeyBytes = try #require(EncryptionMasterKey.bytes(ofMasterKey: Vectors.masterKeyBase64))
        self.verifier = WebhookVerifier(credentials: Self.credentials, masterKey: self.masterKey)
    }

    /// A signed webhook body with these events.
    static func signedBody(_ events: [JSONValue]) -> (body: [UInt8], signature: String) {
        let body = Array(JSONValue.object(["time_ms": 1_700_000_000_123, "events": .array(events)]).jsonText.utf8)
        return (body, HMACSHA256.hex(key: Vectors.secret, message: body))
    }

    static func clientEvent(channel: String, data: String) -> JSONValue {
        [
            "name": "client_event", "channel": .string(channel), "event": "client-typing", "data": .string(data),
            "socket_id": "1234.1234",
        ]
    }

    @Test(.enabled(if: SecretBox.isAvailable)) func theVectorsEncryptedClientEventOpens() throws {
        let entries = try Vectors.entries("pusher-http-api.json", "webhooks", "valid")
        let entry = try #require(entries.first { $0["id"] == "webhook_encrypted_client_event" })
        let body = Array(entry.text("body").utf8)
        let webhook = try self.verifier.verify(key: Vectors.key, signature: entry.text("signature"), body: body)
        let event = try #require(webhook.events.first)
        #expect(event.isDecrypted)
        #expect(event.decryptionError == nil)
        #expect(event.data == (entry.text("decrypted_data")))
        #expect(event.fields["data"]?.stringValue == (entry.text("decrypted_data")))
        #expect(event.fields["event"] == "client-typing")

        // Without the master key the data stays as sent, and nothing is marked.
        let plain = WebhookVerifier(credentials: Self.credentials)
        let kept = try #require(
            try plain.verify(key: Vectors.key, signature: entry.text("signature"), body: body).events.first)
        #expect(!kept.isDecrypted)
        #expect(kept.decryptionError == nil)
        #expect(kept.data?.contains("ciphertext") == true)
    }

    @Test(.enabled(if: SecretBox.isAvailable)) func anEventSealedHereOpens() throws {
        let channel = "private-encrypted-room"
        let key = EncryptionMasterKey.channelKey(forChannel: channel, masterKey: self.masterKeyBytes)
        let data = try #require(EncryptedPayload.seal(#"{"text":"hé, \"you\""}"#, key: key))
        let (body, signature) = Self.signedBody([Self.clientEvent(channel: channel, data: data)])
        let event = try #require(
            try self.verifier.verify(key: Vectors.key, signature: signature, body: body).events.first)
        #expect(event.data == #"{"text":"hé, \"you\""}"#)
        #expect(event.isDecrypted)
    }

    /// One event that does not open is marked; the events around it are kept and decrypted.
    @Test(.enabled(if: SecretBox.isAvailable)) func aBadEventIsMarkedAndTheOthersKept() throws {
        let channel = "private-encrypted-room"
        let key = EncryptionMasterKey.channelKey(forChannel: channel, masterKey: self.masterKeyBytes)
        let otherKey = EncryptionMasterKey.channelKey(
            forChannel: "private-encrypted-other", masterKey: self.masterKeyBytes)
        let good = try #require(EncryptedPayload.seal("one", key: key))
        let wrong = try #require(EncryptedPayload.seal("two", key: otherKey))
        let (body, signature) = Self.signedBody([
            Self.clientEvent(channel: channel, data: good),
            Self.clientEvent(channel: channel, data: wrong),
            Self.clientEvent(channel: channel, data: "not encrypted"),
            ["name": "member_added", "channel": "presence-a", "user_id": "b"],
            Self.clientEvent(channel: channel, data: try #require(EncryptedPayload.seal("three", key: key))),
        ])
        let events = try self.verifier.verify(key: Vectors.key, signature: signature, body: body).events
        #expect(events.count == 5)
        #expect(events.map(\.isDecrypted) == [true, false, false, false, true])
        #expect(events[0].data == "one")
        #expect(events[4].data == "three")
        #expect(events[1].decryptionError?.code == .invalidWebhook)
        #expect(events[1].data == wrong, "kept as sent")
        #expect(events[1].fields["data"]?.stringValue == wrong)
        #expect(events[2].decryptionError?.code == .invalidWebhook)
        #expect(events[3].decryptionError == nil)
        #expect(events[3].userID == "b")
    }

    /// Only client events of private-encrypted channels are opened.
    @Test func otherChannelsAreLeftAlone() throws {
        let (body, signature) = Self.signedBody([Self.clientEvent(channel: "private-room", data: #"{"a":1}"#)])
        let event = try #require(
            try self.verifier.verify(key: Vectors.key, signature: signature, body: body).events.first)
        #expect(event.data == #"{"a":1}"#)
        #expect(!event.isDecrypted)
        #expect(event.decryptionError == nil)
    }

    @Test(.enabled(if: SecretBox.isAvailable)) func theServersVerifierUsesItsConfiguration() throws {
        let configuration = try PusherServerConfiguration(
            appID: "1234", key: Vectors.key, secret: Vectors.secret, host: "127.0.0.1", port: 9, useTLS: false,
            encryptionMasterKey: self.masterKey)
        let verifier = PusherServer(configuration: configuration).webhookVerifier
        let entries = try Vectors.entries("pusher-http-api.json", "webhooks", "valid")
        let entry = try #require(entries.first { $0["id"] == "webhook_encrypted_client_event" })
        let webhook = try verifier.verify(
            key: Vectors.key, signature: entry.text("signature"), body: Array(entry.text("body").utf8))
        #expect(webhook.events.first?.data == (entry.text("decrypted_data")))
        let other = #expect(throws: PusherServerError.self) {
            try verifier.verify(key: "other", signature: entry.text("signature"), body: Array(entry.text("body").utf8))
        }
        #expect(other?.code == .unknownKey)
    }
}
