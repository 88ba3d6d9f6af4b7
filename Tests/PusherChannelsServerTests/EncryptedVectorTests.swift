// SPDX-License-Identifier: MIT

import Foundation
import PusherChannelsServer
import PusherCrypto
import Testing

/// The encrypted requests of Vectors/pusher-http-api.json: the vector's plaintext sealed with its
/// fixed nonce gives its ciphertext, and our request for the call carries it.
@Suite("Encrypted HTTP API known answers")
struct EncryptedVectorTests {
    static var ids: [String] { HTTPAPIVectorTests.encryptedIDs }

    static func vector(_ id: String) throws -> HTTPAPIVectors.Request {
        try #require(try HTTPAPIVectorTests.vectors.get().encryptedRequests.first { $0.id == id })
    }

    static func bytes(base64: String?) throws -> [UInt8] {
        try #require(base64.flatMap { Data(base64Encoded: $0) }.map { Array($0) })
    }

    /// The `nonce` and `ciphertext` of an encrypted event's data.
    static func fields(ofData data: String) throws -> (nonce: String, ciphertext: String) {
        guard case .object(let fields) = try JSONValue(parsing: data),
            case .string(let nonce)? = fields["nonce"], case .string(let ciphertext)? = fields["ciphertext"]
        else {
            Issue.record("not an encrypted payload: \(data)")
            throw CancellationError()
        }
        return (nonce, ciphertext)
    }

    @Test("sealing the plaintext with the vector's nonce gives its ciphertext", arguments: Self.ids)
    func sealing(id: String) throws {
        let vector = try Self.vector(id)
        let channel = try #require(vector.channel)
        let masterKey = try #require(EncryptionMasterKey.bytes(ofMasterKey: TestApp.masterKeyBase64))
        let key = EncryptionMasterKey.channelKey(forChannel: channel, masterKey: masterKey)
        let plaintext = try #require(vector.plaintext)
        let fixedNonce = try Self.bytes(base64: vector.nonceB64)
        let sealed = try #require(EncryptedPayload.seal(plaintext, key: key, nonce: fixedNonce))
        let (nonce, ciphertext) = try Self.fields(ofData: sealed)
        #expect(nonce == vector.nonceB64)
        #expect(ciphertext == vector.ciphertextB64)
        let wireData = try #require(vector.wireData)
        #expect(try JSONValue(parsing: sealed) == JSONValue(parsing: wireData))
    }

    @Test("our request for the call carries the vector's encrypted data", arguments: Self.ids)
    func ourRequest(id: String) throws {
        let vector = try Self.vector(id)
        let nonce = try Self.bytes(base64: vector.nonceB64)
        let builder = RequestBuilder(configuration: try TestApp.configuration())
        let request: PusherAPIRequest
        switch id {
        case "trigger_encrypted", "trigger_encrypted_string_data":
            request = try builder.trigger(
                channels: [try #require(vector.channel)], event: "my-event", data: try #require(vector.plaintext),
                socketID: nil, info: [], nonce: { nonce })
        case "trigger_batch_encrypted":
            request = try builder.batch(
                [
                    BatchEvent(
                        channel: "private-encrypted-my-channel", event: "event-1", data: try #require(vector.plaintext)),
                    BatchEvent(channel: "my-channel", event: "event-2", data: "not encrypted"),
                ], nonce: { nonce })
        default:
            Issue.record("no call for the vector \(id)")
            return
        }
        #expect(request.method.rawValue == vector.method)
        #expect(request.path == vector.path)
        // The data differs only in JSON formatting ({"nonce":…} vs {"nonce": …}): compare it parsed.
        #expect(try Self.normalized(String(decoding: request.body, as: UTF8.self)) == Self.normalized(vector.body))
    }

    /// The body with each encrypted event's data parsed.
    static func normalized(_ body: String) throws -> JSONValue {
        func normalize(_ event: JSONValue) throws -> JSONValue {
            guard case .object(var fields) = event, case .string(let data)? = fields["data"],
                data.hasPrefix("{") && data.contains("ciphertext")
            else { return event }
            fields["data"] = try JSONValue(parsing: data)
            return .object(fields)
        }
        guard case .object(var fields) = try JSONValue(parsing: body) else { return try JSONValue(parsing: body) }
        if case .array(let events)? = fields["batch"] { fields["batch"] = .array(try events.map(normalize)) }
        return try normalize(.object(fields))
    }

    @Test("every encrypted event gets its own fresh nonce, and socket_id and info are kept")
    func freshNonces() async throws {
        let transport = RecordingTransport()
        let server = PusherServer(
            configuration: try TestApp.configuration(), transport: transport, timestamp: { 1_700_000_000 })
        try await server.trigger(
            channel: "private-encrypted-a", event: "e", data: "same", socketID: "1.2", info: [.subscriptionCount])
        try await server.trigger(channel: "private-encrypted-a", event: "e", data: "same")
        try await server.triggerBatch([
            BatchEvent(channel: "private-encrypted-a", event: "e", data: "same"),
            BatchEvent(channel: "private-encrypted-b", event: "e", data: "same"),
        ])
        let requests = await transport.requests
        try #require(requests.count == 3)
        var nonces = [String]()
        var datas = [String]()
        for request in requests {
            guard case .object(let body) = try JSONValue(parsing: String(decoding: request.body, as: UTF8.self))
            else { throw CancellationError() }
            var events = [JSONValue.object(body)]
            if case .array(let batch)? = body["batch"] { events = batch }
            for case .object(let event) in events {
                guard case .string(let data)? = event["data"] else { continue }
                datas.append(data)
                nonces.append(try Self.fields(ofData: data).nonce)
                #expect(!data.contains("same"))
            }
        }
        #expect(nonces.count == 4)
        #expect(Set(nonces).count == 4, "a nonce was used twice")
        let first = try JSONValue(parsing: String(decoding: requests[0].body, as: UTF8.self))
        guard case .object(let fields) = first else { throw CancellationError() }
        #expect(fields["socket_id"] == "1.2")
        #expect(fields["info"] == "subscription_count")
        // Each opens with the channel's key.
        let masterKey = try #require(EncryptionMasterKey.bytes(ofMasterKey: TestApp.masterKeyBase64))
        for (index, data) in datas.enumerated() {
            let channel = index == 3 ? "private-encrypted-b" : "private-encrypted-a"
            let (nonce, ciphertext) = try Self.fields(ofData: data)
            let opened = SecretBox.open(
                try Self.bytes(base64: ciphertext), nonce: try Self.bytes(base64: nonce),
                key: EncryptionMasterKey.channelKey(forChannel: channel, masterKey: masterKey))
            #expect(opened.map { String(decoding: $0, as: UTF8.self) } == "same")
        }
    }
}
