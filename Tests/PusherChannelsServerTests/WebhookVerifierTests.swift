// SPDX-License-Identifier: MIT

import PusherChannelsServer
import PusherCrypto
import Testing

/// Webhooks against the official Python library's `validate_webhook` (the `webhooks` section of
/// pusher-http-api.json): every valid one accepted with its events, every tampered one refused.
@Suite struct WebhookVerifierTests {
    let verifier = WebhookVerifier(credentials: [WebhookCredential(key: Vectors.key, secret: Vectors.secret)])

    @Test func validWebhooksGiveTheirEvents() throws {
        for entry in try Vectors.entries("pusher-http-api.json", "webhooks", "valid") {
            let id = entry.text("id")
            let webhook = try self.verifier.verify(
                key: entry.text("key"), signature: entry.text("signature"),
                body: Array(entry.text("body").utf8))
            #expect(webhook.timeMs == .number("1700000000123"), "\(id)")
            guard case .array(let expected) = entry["events"] else {
                Issue.record("\(id) has no events")
                continue
            }
            #expect(webhook.events.map(\.fields) == expected, "\(id)")
            #expect(webhook.events.map(\.name) == expected.map { $0["name"]?.stringValue }, "\(id)")
            #expect(webhook.events.allSatisfy { !$0.isDecrypted && $0.decryptionError == nil }, "\(id)")
        }
    }

    @Test func typedFieldsOfTheVectorEvents() throws {
        let entries = try Vectors.entries("pusher-http-api.json", "webhooks", "valid")
        let first = try self.verifier.verify(
            key: Vectors.key, signature: entries[0].text("signature"), body: Array(entries[0].text("body").utf8))
        #expect(first.events.map(\.kind) == [.channelOccupied, .memberAdded, .channelVacated])
        #expect(first.events.map(\.channel) == ["my-channel", "presence-my-room", "my-channel"])
        #expect(first.events[1].userID == "alice")
        let second = try self.verifier.verify(
            key: Vectors.key, signature: entries[1].text("signature"), body: Array(entries[1].text("body").utf8))
        let clientEvent = try #require(second.events.last)
        #expect(clientEvent.kind == .clientEvent)
        #expect(clientEvent.event == "client-typing")
        #expect(clientEvent.data == #"{"text":"hé"}"#)
        #expect(clientEvent.socketID == "1234.1234")
    }

    @Test func tamperedWebhooksAreRefused() throws {
        let expected: [String: PusherServerError.Code] = [
            "tampered_body": .invalidSignature, "wrong_key": .unknownKey, "wrong_secret": .invalidSignature,
            "signature_of_reserialised_json": .invalidSignature,
        ]
        let entries = try Vectors.entries("pusher-http-api.json", "webhooks", "must_reject")
        #expect(Set(entries.map { $0.text("id") }) == Set(expected.keys))
        for entry in entries {
            let id = entry.text("id")
            let error = #expect(throws: PusherServerError.self, "\(id)") {
                try self.verifier.verify(
                    key: entry.text("key"), signature: entry.text("signature"),
                    body: Array(entry.text("body").utf8))
            }
            #expect(error?.code == expected[id], "\(id)")
        }
    }

    /// The official library rejects this one only for its age; `time_ms` is not checked here.
    @Test func freshnessIsNotChecked() throws {
        for entry in try Vectors.entries("pusher-http-api.json", "webhooks", "library_only_rejects") {
            let webhook = try self.verifier.verify(
                key: entry.text("key"), signature: entry.text("signature"),
                body: Array(entry.text("body").utf8))
            #expect(webhook.events.map(\.kind) == [.channelOccupied])
        }
    }

    /// The signature is checked before anything is decoded: a body that is not even JSON is refused
    /// for its signature, not reported as undecodable.
    @Test func signatureIsCheckedBeforeDecoding() {
        let body = Array(#"{"time_ms":1,"events":[{"name":"#.utf8)
        let signedElsewhere = HMACSHA256.hex(key: Vectors.secret, message: #"{"time_ms":1,"events":[]}"#)
        let error = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(key: Vectors.key, signature: signedElsewhere, body: body)
        }
        #expect(error?.code == .invalidSignature)

        let unknownKey = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(key: "other", signature: signedElsewhere, body: body)
        }
        #expect(unknownKey?.code == .unknownKey)

        // Correctly signed, the same bytes are a decoding error.
        let signed = HMACSHA256.hex(key: Vectors.secret, message: body)
        let invalid = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(key: Vectors.key, signature: signed, body: body)
        }
        #expect(invalid?.code == .invalidWebhook)
    }

    @Test func missingHeadersAreRefused() throws {
        let body = Array(#"{"time_ms":1,"events":[]}"#.utf8)
        let signature = HMACSHA256.hex(key: Vectors.secret, message: body)
        let noKey = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(key: nil, signature: signature, body: body)
        }
        #expect(noKey?.code == .unknownKey)
        for missing in [nil, "", signature.uppercased(), String(signature.dropLast()), signature + "0"] {
            let error = #expect(throws: PusherServerError.self) {
                try self.verifier.verify(key: Vectors.key, signature: missing, body: body)
            }
            #expect(error?.code == .invalidSignature)
        }
        #expect(try self.verifier.verify(key: Vectors.key, signature: signature, body: body).events.isEmpty)
    }

    @Test func severalKeysForRotation() throws {
        let verifier = WebhookVerifier(credentials: [
            WebhookCredential(key: "old-key", secret: "old-secret"),
            WebhookCredential(key: Vectors.key, secret: "previous-secret"),
            WebhookCredential(key: Vectors.key, secret: Vectors.secret),
        ])
        let body = Array(#"{"time_ms":1,"events":[{"name":"channel_vacated","channel":"a"}]}"#.utf8)
        for (key, secret) in [
            ("old-key", "old-secret"), (Vectors.key, "previous-secret"), (Vectors.key, Vectors.secret),
        ] {
            let webhook = try verifier.verify(
                key: key, signature: HMACSHA256.hex(key: secret, message: body), body: body)
            #expect(webhook.events.first?.kind == .channelVacated)
        }
        let crossed = #expect(throws: PusherServerError.self) {
            try verifier.verify(
                key: "old-key", signature: HMACSHA256.hex(key: Vectors.secret, message: body), body: body)
        }
        #expect(crossed?.code == .invalidSignature)
    }

    @Test func headersAreFoundWhateverTheirCase() throws {
        let body = Array(#"{"time_ms":1,"events":[{"name":"cache_miss","channel":"cache-a"}]}"#.utf8)
        let headers = [
            (name: "content-type", value: "application/json"), (name: "x-pusher-key", value: Vectors.key),
            (name: "X-PUSHER-SIGNATURE", value: HMACSHA256.hex(key: Vectors.secret, message: body)),
        ]
        #expect(try self.verifier.verify(headers: headers, body: body).events.first?.kind == .cacheMiss)
    }

    @Test func everyKindAndUnknownNamesAreKept() throws {
        let body = Array(
            """
            {"time_ms":"soon","events":[{"name":"channel_occupied","channel":"a"},{"name":"channel_vacated","channel":"a"},\
            {"name":"member_added","channel":"presence-a","user_id":10},{"name":"member_removed","channel":"presence-a","user_id":"b"},\
            {"name":"client_event","channel":"private-a","event":"client-x","data":{"k":1},"socket_id":"1.2","user_id":"b"},\
            {"name":"cache_miss","channel":"cache-a"},{"name":"subscription_count","channel":"a","subscription_count":3},\
            {"name":"brand_new","channel":"a","extra":[1]}]}
            """.utf8)
        let webhook = try self.verifier.verify(
            key: Vectors.key, signature: HMACSHA256.hex(key: Vectors.secret, message: body), body: body)
        #expect(webhook.timeMs == "soon")
        #expect(
            webhook.events.map(\.kind) == [
                .channelOccupied, .channelVacated, .memberAdded, .memberRemoved, .clientEvent, .cacheMiss,
                .subscriptionCount, .unknown("brand_new"),
            ])
        #expect(webhook.events[2].userID == "10")
        #expect(webhook.events[4].data == #"{"k":1}"#)
        #expect(webhook.events[4].userID == "b")
        #expect(webhook.events[6].subscriptionCount == 3)
        #expect(webhook.events[7].fields["extra"] == [1])
    }

    @Test(arguments: ["[]", #"{"time_ms":1}"#, #"{"events":{}}"#, #"{"events":[1]}"#, "\u{FEFF}{}"])
    func signedBodiesThatAreNotWebhooks(text: String) {
        let body = Array(text.utf8)
        let error = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(
                key: Vectors.key, signature: HMACSHA256.hex(key: Vectors.secret, message: body), body: body)
        }
        #expect(error?.code == .invalidWebhook)
    }

    @Test func signedBodyThatIsNotUTF8() {
        let body: [UInt8] = [0x7B, 0xFF, 0x7D]
        let error = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(
                key: Vectors.key, signature: HMACSHA256.hex(key: Vectors.secret, message: body), body: body)
        }
        #expect(error?.code == .invalidWebhook)
    }
}
