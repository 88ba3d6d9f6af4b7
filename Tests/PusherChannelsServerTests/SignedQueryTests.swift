// SPDX-License-Identifier: MIT

import Foundation
import PusherChannelsServer
import Testing

/// The public signer reproduces every signed request of Vectors/pusher-http-api.json and the API
/// reference's worked example; the generic calls send what they are given, signed, under
/// `/apps/ID/`.
@Suite("Public signer and generic calls")
struct SignedQueryTests {
    static let vectors = Result { try HTTPAPIVectors.load() }
    static var allIDs: [String] {
        guard let vectors = try? Self.vectors.get() else { return [] }
        return (vectors.requests + vectors.encryptedRequests).map(\.id)
    }

    static func server(key: String, secret: String, appID: String = "1234") throws -> PusherServer {
        PusherServer(
            configuration: try PusherServerConfiguration(appID: appID, key: key, secret: secret, cluster: "eu"))
    }

    @Test("signedQuery reproduces each vector's signature, signed text and query", arguments: Self.allIDs)
    func vector(id: String) throws {
        let vectors = try Self.vectors.get()
        let vector = try #require((vectors.requests + vectors.encryptedRequests).first { $0.id == id })
        let own = vector.queryParams.filter { !$0.key.hasPrefix("auth_") && $0.key != "body_md5" }
        let timestamp: Int = try #require(Int(vectors.credentials.authTimestamp))
        let signed = try Self.server(key: vectors.credentials.key, secret: vectors.credentials.secret).signedQuery(
            method: vector.method, path: vector.path, query: own, body: Array(vector.body.utf8), timestamp: timestamp)
        #expect(signed.signature == vector.authSignature)
        #expect(signed.stringToSign == vector.stringToSign)
        #expect(signed.parameters == vector.queryParams)
        #expect(signed.queryString.removingPercentEncoding == vector.queryString)
        #expect(signed.description == signed.queryString)
    }

    @Test("signedQuery reproduces the API reference's worked example")
    func workedExample() throws {
        let example = try Self.vectors.get().docsCrosscheck
        let server = try Self.server(key: example.key, secret: example.secret, appID: example.appID)
        let timestamp: Int = try #require(Int(example.authTimestamp))
        let signed = try server.signedQuery(
            method: example.method, path: example.path, body: Array(example.body.utf8), timestamp: timestamp)
        #expect(signed.signature == example.authSignature)
        #expect(signed.parameters["body_md5"] == example.bodyMD5)
    }

    @Test(
        "signedQuery refuses what it cannot sign as sent",
        arguments: [
            ("PUT", "/apps/1/events", [:]), ("POST", "apps/1/events", [:]), ("GET", "/apps/1/channels/a b", [:]),
            ("GET", "/apps/1/channels/%41", [:]), ("GET", "/apps/1/../2/channels", [:]),
            ("GET", "/apps/1/channels", ["auth_timestamp": "1"]), ("GET", "/apps/1/channels", ["BODY_MD5": "x"]),
        ] as [(String, String, [String: String])])
    func refusals(method: String, path: String, query: [String: String]) throws {
        let server = try Self.server(key: TestApp.key, secret: TestApp.secret)
        #expect(throws: PusherServerError.self) { try server.signedQuery(method: method, path: path, query: query) }
        do {
            _ = try server.signedQuery(method: method, path: path, query: query)
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test("get and post send signed requests under /apps/ID/ and return the status and body as they came")
    func genericCalls() async throws {
        let transport = RecordingTransport(response: .init(status: 200, body: #"{"users":[{"id":"1"}]}"#))
        let server = try TestApp.server(transport: transport)
        let answer = try await server.get(path: "channels/presence-room/users", query: ["with_user_info": "1"])
        #expect(answer.httpStatus == 200)
        #expect(answer.text == #"{"users":[{"id":"1"}]}"#)
        #expect(try answer.json()["users"] == [["id": "1"]])

        await transport.answer(.init(status: 202, body: "accepted"))
        let posted = try await server.post(path: "users/alice/terminate_connections", body: "{}")
        #expect(posted.httpStatus == 202)
        #expect(posted.body == Array("accepted".utf8))
        #expect(throws: PusherServerError.self) { try posted.json() }

        let requests = await transport.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == .get)
        #expect(requests[0].path == "/apps/1234/channels/presence-room/users")
        #expect(requests[0].parameters.contains(.init("with_user_info", "1")))
        #expect(requests[1].method == .post)
        #expect(requests[1].path == "/apps/1234/users/alice/terminate_connections")
        #expect(requests[1].body == Array("{}".utf8))
        // The same signature as the public signer's for the same request.
        let expected = try server.signedQuery(
            method: "POST", path: requests[1].path, body: Array("{}".utf8), timestamp: 1_700_000_000)
        #expect(requests[1].signature == expected.signature)
    }

    @Test("a generic call's non-2xx answer is an httpStatus error with the body")
    func genericErrors() async throws {
        let transport = RecordingTransport(response: .init(status: 404, body: #"{"error":"no such path"}"#))
        let server = try TestApp.server(transport: transport)
        do {
            _ = try await server.get(path: "nothing")
            Issue.record("a 404 was a success")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.httpStatus == 404)
            #expect(error.responseBody == #"{"error":"no such path"}"#)
        }
    }

    @Test(
        "a generic call refuses a path it cannot send as signed, before sending",
        arguments: ["", "/channels", "channels/", "channels//a", "../channels", "channels/a b", "channels?x=1", "a#b"])
    func genericPathRefusals(path: String) async throws {
        let transport = RecordingTransport()
        let server = try TestApp.server(transport: transport)
        do {
            _ = try await server.get(path: path)
            Issue.record("sent \(path)")
        } catch {
            #expect(error.code == .invalidArgument)
        }
        #expect(await transport.requests.isEmpty)
    }
}
