// SPDX-License-Identifier: MIT

import Foundation
import PusherChannelsServer
import PusherCrypto
import Testing

/// Every request of Vectors/pusher-http-api.json reproduced: the vector's exact body bytes signed at
/// its timestamp give its query string and signature; our own request for the same call has the
/// vector's method, path, query and body content (our JSON formatting differs from Python's, so its
/// bytes, and so its body_md5, differ: every GET, with no body, matches to the byte).
@Suite("HTTP API known answers")
struct HTTPAPIVectorTests {
    static let vectors = Result { try HTTPAPIVectors.load() }

    static var requestIDs: [String] { (try? Self.vectors.get().requests.map(\.id)) ?? [] }
    static var encryptedIDs: [String] { (try? Self.vectors.get().encryptedRequests.map(\.id)) ?? [] }

    static func signer() throws -> RequestSigner {
        let credentials = try Self.vectors.get().credentials
        return RequestSigner(key: credentials.key, secret: credentials.secret)
    }

    static func builder() throws -> RequestBuilder {
        RequestBuilder(configuration: try TestApp.configuration())
    }

    /// The vector's call's own query parameters (every parameter but the signer's).
    static func ownQuery(_ vector: HTTPAPIVectors.Request) -> [PusherAPIRequest.Parameter] {
        vector.queryParams.filter { !$0.key.hasPrefix("auth_") && $0.key != "body_md5" }
            .sorted { $0.key < $1.key }.map { PusherAPIRequest.Parameter($0.key, $0.value) }
    }

    /// Signs the vector's exact request and checks every signed value.
    static func checkSigning(_ vector: HTTPAPIVectors.Request) throws {
        let timestamp = try #require(Int(try Self.vectors.get().credentials.authTimestamp))
        let request = PusherAPIRequest(
            method: try #require(PusherAPIRequest.Method(rawValue: vector.method)), path: vector.path,
            query: Self.ownQuery(vector), body: Array(vector.body.utf8))
        let signed = try Self.signer().sign(request, timestamp: timestamp)
        #expect(signed.stringToSign == vector.stringToSign)
        #expect(signed.signature == vector.authSignature)
        #expect(signed.queryString == vector.queryString)
        #expect(signed.parameters.first { $0.name == "body_md5" }?.value == vector.bodyMD5)
    }

    @Test("the vectors file is the shared one")
    func vectorsAreTheSharedOnes() throws {
        // Only where the package is checked out beside ../shared; a fresh clone has just the copy.
        guard FileManager.default.fileExists(atPath: HTTPAPIVectors.sharedURL.path) else { return }
        #expect(try Data(contentsOf: HTTPAPIVectors.url) == Data(contentsOf: HTTPAPIVectors.sharedURL))
    }

    @Test("every request of the file is reproduced")
    func requestCount() throws {
        #expect(try Self.vectors.get().requests.count == 10)
        #expect(try Self.vectors.get().encryptedRequests.count == 3)
    }

    @Test("the vector's body bytes signed at its timestamp", arguments: Self.requestIDs)
    func signing(id: String) throws {
        let vector = try #require(try Self.vectors.get().requests.first { $0.id == id })
        try Self.checkSigning(vector)
    }

    @Test("the encrypted vector's body bytes signed at its timestamp", arguments: Self.encryptedIDs)
    func encryptedSigning(id: String) throws {
        let vector = try #require(try Self.vectors.get().encryptedRequests.first { $0.id == id })
        try Self.checkSigning(vector)
    }

    /// Our request for the vector's call.
    static func ourRequest(for id: String) throws -> PusherAPIRequest {
        let builder = try Self.builder()
        let none: () -> [UInt8] = { [] }
        switch id {
        case "trigger_one_channel":
            return try builder.trigger(
                channels: ["my-channel"], event: "my-event", data: #"{"message": "hello world"}"#, socketID: nil,
                info: [], nonce: none)
        case "trigger_channels_socket_id":
            return try builder.trigger(
                channels: ["my-channel-1", "my-channel-2", "presence-my-room"], event: "my-event",
                data: #"a plain string with "quotes" and ü"#, socketID: "1234.1234", info: [], nonce: none)
        case "trigger_channels_socket_id_info":
            return try builder.trigger(
                channels: ["my-channel-1", "presence-my-room"], event: "my-event", data: #"{"message": "hello"}"#,
                socketID: "1234.1234", info: [.subscriptionCount, .userCount], nonce: none)
        case "trigger_batch":
            return try builder.batch(
                [
                    BatchEvent(channel: "my-channel", event: "event-1", data: #"{"n": 1}"#),
                    BatchEvent(
                        channel: "presence-my-room", event: "event-2", data: "text ü", socketID: "1234.1234",
                        info: [.userCount, .subscriptionCount]),
                    BatchEvent(channel: "my-channel-2", event: "event-3", data: "[1, 2, 3]"),
                ], nonce: none)
        case "channels_prefix_info": return try builder.channels(prefix: "presence-", info: [.userCount])
        case "channels_all": return try builder.channels(prefix: nil, info: [])
        case "channel_info": return try builder.channel("presence-my-room", info: [.userCount, .subscriptionCount])
        case "users": return try builder.users(inPresenceChannel: "presence-my-room")
        case "send_to_user":
            return try builder.trigger(
                channels: ["#server-to-user-user-1"], event: "my-event", data: #"{"message": "hi"}"#, socketID: nil,
                info: [], nonce: none)
        case "terminate_user_connections": return try builder.terminateConnections(userID: "user-1")
        default:
            Issue.record("no call for the vector \(id)")
            throw CancellationError()
        }
    }

    @Test("our request for the vector's call has its method, path, query and body content", arguments: Self.requestIDs)
    func ourRequests(id: String) throws {
        let vector = try #require(try Self.vectors.get().requests.first { $0.id == id })
        let ours = try Self.ourRequest(for: id)
        #expect(ours.method.rawValue == vector.method)
        #expect(ours.path == vector.path)
        #expect(ours.query == Self.ownQuery(vector))
        let ourBody = String(decoding: ours.body, as: UTF8.self)
        if vector.body.isEmpty {
            #expect(ourBody.isEmpty)
            // No body: the whole signed query matches to the byte.
            let signed = try Self.signer().sign(ours, timestamp: 1_700_000_000)
            #expect(signed.queryString == vector.queryString)
        } else {
            #expect(try JSONValue(parsing: ourBody) == JSONValue(parsing: vector.body))
            // The body_md5 we sign is that of the bytes we send.
            let signed = try Self.signer().sign(ours, timestamp: 1_700_000_000)
            let md5 = signed.parameters.first { $0.name == "body_md5" }?.value
            #expect(md5 == MD5Digest.hex(ours.body))
        }
    }

    @Test("the worked example of the HTTP API reference")
    func docsCrosscheck() throws {
        let example = try Self.vectors.get().docsCrosscheck
        let request = PusherAPIRequest(method: .post, path: example.path, body: Array(example.body.utf8))
        let signed = try RequestSigner(key: example.key, secret: example.secret)
            .sign(request, timestamp: try #require(Int(example.authTimestamp)))
        #expect(signed.stringToSign == example.stringToSign)
        #expect(signed.signature == example.authSignature)
        #expect(signed.parameters.first { $0.name == "body_md5" }?.value == example.bodyMD5)
        #expect(example.path == "/apps/\(example.appID)/events")
    }
}
