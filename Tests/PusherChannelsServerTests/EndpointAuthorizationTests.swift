// SPDX-License-Identifier: MIT

import HTTPTypes
import NIOCore
import PusherChannelsServer
import Testing

/// The channel authorization and user authentication endpoints as one call each: bytes in, status,
/// content type and body out, against the official library's known answers.
@Suite struct EndpointAuthorizationTests {
    let server: PusherServer
    let noMasterKey: PusherServer

    init() throws {
        self.server = try ClientAuthorizationTests.server()
        self.noMasterKey = try ClientAuthorizationTests.server(withMasterKey: false)
    }

    static func form(socketID: String, channel: String) -> String {
        "socket_id=\(socketID)&channel_name=\(channel)"
    }

    /// A refusal as the user sees it: the status, plain text, a reason.
    static func expectRefusal(
        _ response: PusherEndpointResponse, _ status: HTTPResponse.Status,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.contentType == "text/plain; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.headerFields[.contentType] == "text/plain; charset=utf-8", sourceLocation: sourceLocation)
        #expect(!response.body.isEmpty, sourceLocation: sourceLocation)
        #expect(!response.body.contains(Vectors.secret), sourceLocation: sourceLocation)
    }

    @Test func privateChannelsFromByteArrays() async throws {
        for entry in try Vectors.entries("pusher-official.json", "private_auth") {
            let body = Array(Self.form(socketID: entry.text("socket_id"), channel: entry.text("channel_name")).utf8)
            let response = await self.server.channelAuthorizationResponse(body: body) { request in
                #expect(request.channelName == entry.text("channel_name"))
                return .allow
            }
            #expect(response.status == .ok)
            #expect(response.contentType == "application/json")
            #expect(response.headerFields[.contentType] == "application/json")
            #expect(response.body == #"{"auth":"\#(entry.text("auth"))"}"#)
        }
    }

    @Test func encryptedChannelsFromAByteBuffer() async throws {
        for entry in try Vectors.entries("pusher-official.json", "encrypted_channels") {
            let body = ByteBuffer(
                string: Self.form(socketID: entry.text("socket_id"), channel: entry.text("channel_name")))
            let response = await self.server.channelAuthorizationResponse(body: body) { _ in .allow }
            #expect(response.status == .ok)
            let sent = try JSONValue(parsing: response.body)
            #expect(
                sent == [
                    "auth": .string(entry.text("auth")), "shared_secret": .string(entry.text("shared_secret_b64")),
                ])
        }
    }

    @Test func presenceChannelsFromAUTF8View() async throws {
        let member = PresenceMember(userID: "10", userInfo: ["name": "Mr. Channels"])
        let body = Self.form(socketID: "1234.1234", channel: "presence-foobar").utf8
        let response = await self.server.channelAuthorizationResponse(body: body) { _ in .allowMember(member) }
        #expect(response.status == .ok)
        let expected = PusherSignature.channelAuthorization(
            key: Vectors.key, secret: Vectors.secret, socketID: "1234.1234", channel: "presence-foobar",
            channelData: #"{"user_id":"10","user_info":{"name":"Mr. Channels"}}"#)
        #expect(
            try JSONValue(parsing: response.body)
                == ["auth": .string(expected.auth), "channel_data": .string(expected.channelData ?? "")])
    }

    @Test func decideSeesTheRequestsOtherFields() async throws {
        let body = Array("socket_id=1.2&channel_name=private-x&team=a%20b".utf8)
        let response = await self.server.channelAuthorizationResponse(body: body) { request in
            request.parameters["team"] == "a b" ? .allow : .deny
        }
        #expect(response.status == .ok)
    }

    @Test(
        "malformed bodies, invalid names and public channels are 400, decided by nobody",
        arguments: [
            "socket_id=1%zz.2&channel_name=private-x", "socket_id=1.&channel_name=private-x",
            "socket_id=a.1&channel_name=private-x", "socket_id=1.2", "socket_id=1.2&channel_name=private-a%2Fb",
            "socket_id=1.2&channel_name=public-room", "",
        ]
    )
    func badRequests(body: String) async {
        var asked = false
        let response = await self.server.channelAuthorizationResponse(body: Array(body.utf8)) { _ in
            asked = true
            return .allow
        }
        Self.expectRefusal(response, .badRequest)
        #expect(!asked)
    }

    @Test func bytesThatAreNotUTF8Are400() async {
        let body: [UInt8] = Array("socket_id=1.2&channel_name=private-".utf8) + [0xFF, 0xFE]
        let response = await self.server.channelAuthorizationResponse(body: body) { _ in .allow }
        Self.expectRefusal(response, .badRequest)
    }

    @Test func denyIs403() async {
        let response = await self.server.channelAuthorizationResponse(
            body: Array(Self.form(socketID: "1.2", channel: "private-x").utf8)
        ) { _ in .deny }
        Self.expectRefusal(response, .forbidden)
    }

    @Test func presenceWithoutMemberIs403() async {
        let response = await self.server.channelAuthorizationResponse(
            body: Array(Self.form(socketID: "1.2", channel: "presence-room").utf8)
        ) { _ in .allow }
        Self.expectRefusal(response, .forbidden)
    }

    @Test func encryptedWithoutMasterKeyIs500() async {
        let response = await self.noMasterKey.channelAuthorizationResponse(
            body: Array(Self.form(socketID: "1.2", channel: "private-encrypted-x").utf8)
        ) { _ in .allow }
        Self.expectRefusal(response, .internalServerError)
    }

    @Test func aLongInvalidSocketIDIsNotEchoedInFull() async {
        let socketID = String(repeating: "9", count: 10_000) + "."
        let response = await self.server.channelAuthorizationResponse(
            body: Array(Self.form(socketID: socketID, channel: "private-x").utf8)
        ) { _ in .allow }
        Self.expectRefusal(response, .badRequest)
        #expect(response.body.utf8.count <= PusherEndpointResponse.maximumReasonLength)
    }

    struct Refused: Error {}

    @Test func errorsOfDecidePropagate() async {
        await #expect(throws: Refused.self) {
            _ = try await self.server.channelAuthorizationResponse(
                body: Array(Self.form(socketID: "1.2", channel: "private-x").utf8)
            ) { _ in throw Refused() }
        }
    }

    @Test func userAuthenticationOfTheOfficialLibrary() async throws {
        let entry = try #require(try Vectors.entries("pusher-official.json", "user_auth").first)
        let body = ByteBuffer(string: "socket_id=\(entry.text("socket_id"))")
        let response = await self.server.userAuthenticationResponse(body: body) { request in
            #expect(request.channelName == nil)
            return PusherUser(id: "12345")
        }
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(
            try JSONValue(parsing: response.body)
                == ["auth": .string(entry.text("auth")), "user_data": .string(entry.text("user_data"))])
    }

    @Test func userAuthenticationRefusals() async {
        let refused = await self.server.userAuthenticationResponse(body: Array("socket_id=1.2".utf8)) { _ in nil }
        Self.expectRefusal(refused, .forbidden)
        var asked = false
        let malformed = await self.server.userAuthenticationResponse(body: Array("socket_id=1.2.3".utf8)) { _ in
            asked = true
            return PusherUser(id: "u")
        }
        Self.expectRefusal(malformed, .badRequest)
        #expect(!asked)
        let emptyID = await self.server.userAuthenticationResponse(body: "socket_id=1.2".utf8) { _ in
            PusherUser(id: "")
        }
        Self.expectRefusal(emptyID, .internalServerError)
    }

    @Test func errorsOfAuthenticatePropagate() async {
        await #expect(throws: Refused.self) {
            _ = try await self.server.userAuthenticationResponse(body: Array("socket_id=1.2".utf8)) { _ in
                throw Refused()
            }
        }
    }

    @Test func authorizationRequestsFromBytes() throws {
        let text = "socket_id=123.456&channel_name=private-foo&x=%C3%BC"
        for request in [
            try AuthorizationRequest(formBody: Array(text.utf8)),
            try AuthorizationRequest(formBody: ByteBuffer(string: text)),
            try AuthorizationRequest(formBody: text.utf8),
        ] {
            #expect(request == (try AuthorizationRequest(formBody: text)))
            #expect(request.parameters == ["x": "ü"])
        }
        let error = #expect(throws: PusherServerError.self) {
            try AuthorizationRequest(formBody: [0x73, 0xC3])
        }
        #expect(error?.code == .invalidArgument)
    }
}
