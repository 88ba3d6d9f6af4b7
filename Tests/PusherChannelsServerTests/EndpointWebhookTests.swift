// SPDX-License-Identifier: MIT

import HTTPTypes
import NIOCore
import PusherChannelsServer
import PusherCrypto
import Testing

/// The webhook endpoint as one call: `HTTPFields` and bytes in, status, content type and body out,
/// against the official library's webhooks.
@Suite struct EndpointWebhookTests {
    let verifier = WebhookVerifier(credentials: [WebhookCredential(key: Vectors.key, secret: Vectors.secret)])

    static func fields(
        key: String?, signature: String?, names: (String, String) = ("X-Pusher-Key", "X-Pusher-Signature")
    )
        -> HTTPFields
    {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let key { fields.append(HTTPField(name: HTTPField.Name(names.0)!, value: key)) }
        if let signature { fields.append(HTTPField(name: HTTPField.Name(names.1)!, value: signature)) }
        return fields
    }

    @Test(
        "header names are case-insensitive",
        arguments: [
            ("X-Pusher-Key", "X-Pusher-Signature"), ("x-pusher-key", "x-pusher-signature"),
            ("X-PUSHER-KEY", "x-Pusher-SIGNATURE"),
        ]
    )
    func validWebhooksAreHandledThen200(names: (String, String)) async throws {
        for entry in try Vectors.entries("pusher-http-api.json", "webhooks", "valid") {
            let fields = Self.fields(key: entry.text("key"), signature: entry.text("signature"), names: names)
            var handled: [String] = []
            let response = await self.verifier.response(headerFields: fields, body: Array(entry.text("body").utf8)) {
                handled = $0.events.map(\.name)
            }
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            #expect(response.contentType == "application/json")
            #expect(response.body == "{}")
            guard case .array(let expected) = entry["events"] else {
                Issue.record("the vector has no events")
                continue
            }
            #expect(handled == expected.map { $0["name"]?.stringValue ?? "" })
        }
    }

    @Test func tamperedWebhooksAre401AndNotHandled() async throws {
        let expected: [String: HTTPResponse.Status] = [
            "tampered_body": .unauthorized, "wrong_key": .unauthorized, "wrong_secret": .unauthorized,
            "signature_of_reserialised_json": .unauthorized,
        ]
        for entry in try Vectors.entries("pusher-http-api.json", "webhooks", "must_reject") {
            var handled = false
            let response = await self.verifier.response(
                headerFields: Self.fields(key: entry.text("key"), signature: entry.text("signature")),
                body: Array(entry.text("body").utf8)
            ) { _ in handled = true }
            #expect(response.status == expected[entry.text("id")], "\(entry.text("id"))")
            #expect(response.contentType == "text/plain; charset=utf-8")
            #expect(!handled)
        }
    }

    @Test func missingHeadersAre401() async {
        let body = Array(#"{"time_ms":1,"events":[]}"#.utf8)
        let signature = HMACSHA256.hex(key: Vectors.secret, message: body)
        for fields in [Self.fields(key: nil, signature: signature), Self.fields(key: Vectors.key, signature: nil)] {
            let response = await self.verifier.response(headerFields: fields, body: body) { _ in }
            #expect(response.status == .unauthorized)
        }
    }

    @Test func aSignedBodyThatIsNotAWebhookIs400() async {
        let body = Array(#"{"time_ms":1}"#.utf8)
        let fields = Self.fields(key: Vectors.key, signature: HMACSHA256.hex(key: Vectors.secret, message: body))
        var handled = false
        let response = await self.verifier.response(headerFields: fields, body: body) { _ in handled = true }
        #expect(response.status == .badRequest)
        #expect(response.contentType == "text/plain; charset=utf-8")
        #expect(!handled)
    }

    @Test func verifyTakesHTTPFieldsWithAByteBufferOrAnyByteCollection() throws {
        let entry = try #require(try Vectors.entries("pusher-http-api.json", "webhooks", "valid").first)
        let fields = Self.fields(
            key: entry.text("key"), signature: entry.text("signature"), names: ("x-pusher-key", "X-PUSHER-SIGNATURE"))
        let text = entry.text("body")
        let fromBuffer = try self.verifier.verify(headerFields: fields, body: ByteBuffer(string: text))
        let fromView = try self.verifier.verify(headerFields: fields, body: text.utf8)
        let fromArray = try self.verifier.verify(headerFields: fields, body: Array(text.utf8))
        #expect(fromBuffer.events.map(\.fields) == fromArray.events.map(\.fields))
        #expect(fromView.events.map(\.fields) == fromArray.events.map(\.fields))
        #expect(fromArray.events.map(\.kind) == [.channelOccupied, .memberAdded, .channelVacated])
        let error = #expect(throws: PusherServerError.self) {
            try self.verifier.verify(
                headerFields: Self.fields(key: Vectors.key, signature: nil), body: Array(text.utf8))
        }
        #expect(error?.code == .invalidSignature)
    }

    @Test func theServerAnswersWithItsOwnKeyAndSecret() async throws {
        let server = try ClientAuthorizationTests.server()
        let entry = try #require(try Vectors.entries("pusher-http-api.json", "webhooks", "valid").first)
        let fields = Self.fields(key: entry.text("key"), signature: entry.text("signature"))
        var count = 0
        let response = await server.webhookResponse(headerFields: fields, body: ByteBuffer(string: entry.text("body")))
        {
            count = $0.events.count
        }
        #expect(response.status == .ok)
        #expect(count == 3)
        let other = try PusherServer(
            configuration: PusherServerConfiguration(
                appID: "1", key: Vectors.key, secret: "another-secret", host: "127.0.0.1", port: 9, useTLS: false))
        let refused = await other.webhookResponse(headerFields: fields, body: Array(entry.text("body").utf8)) { _ in }
        #expect(refused.status == .unauthorized)
    }

    struct HandlerFailed: Error {}

    @Test func errorsOfHandlePropagate() async throws {
        let entry = try #require(try Vectors.entries("pusher-http-api.json", "webhooks", "valid").first)
        await #expect(throws: HandlerFailed.self) {
            _ = try await self.verifier.response(
                headerFields: Self.fields(key: entry.text("key"), signature: entry.text("signature")),
                body: Array(entry.text("body").utf8)
            ) { _ in throw HandlerFailed() }
        }
    }
}
