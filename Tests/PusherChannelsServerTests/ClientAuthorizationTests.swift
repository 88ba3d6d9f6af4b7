// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer
import Testing

/// Answering your own clients, against the official Python library's known answers
/// (pusher-official.json, and the user_authentication and shared_secrets of pusher-http-api.json).
@Suite struct ClientAuthorizationTests {
    static func server(withMasterKey: Bool = true) throws -> PusherServer {
        let configuration = try PusherServerConfiguration(
            appID: "1234", key: Vectors.key, secret: Vectors.secret, host: "127.0.0.1", port: 9, useTLS: false,
            encryptionMasterKey: withMasterKey
                ? PusherServerConfiguration.MasterKey(base64: Vectors.masterKeyBase64) : nil)
        return PusherServer(configuration: configuration)
    }

    @Test func privateChannelsOfTheOfficialLibrary() throws {
        let server = try Self.server()
        for entry in try Vectors.entries("pusher-official.json", "private_auth") {
            let response = try server.authorizeChannel(
                socketID: entry.text("socket_id"), channel: entry.text("channel_name"))
            #expect(response.authorization == ChannelAuthorization(auth: entry.text("auth")))
            #expect(response.json == #"{"auth":"\#(entry.text("auth"))"}"#)
        }
    }

    @Test func presenceChannelsSignTheExactChannelData() throws {
        let server = try Self.server()
        for entry in try Vectors.entries("pusher-official.json", "presence_auth") {
            let channelData = entry.text("channel_data")
            let response = try server.authorizeChannel(
                socketID: entry.text("socket_id"), channel: entry.text("channel_name"),
                channelData: channelData)
            #expect(response.authorization.auth == (entry.text("auth")))
            #expect(response.authorization.channelData == channelData)
            let sent = try JSONValue(parsing: response.json)
            #expect(sent == ["auth": .string(entry.text("auth")), "channel_data": .string(channelData)])
        }
    }

    @Test func presenceMemberIsWrittenOnceForClientAndServer() throws {
        let member = PresenceMember(userID: "10", userInfo: ["name": "Mr. Channels"])
        let response = try Self.server().authorizeChannel(
            socketID: "1234.1234", channel: "presence-foobar", member: member)
        #expect(response.authorization.channelData == #"{"user_id":"10","user_info":{"name":"Mr. Channels"}}"#)
        #expect(response.authorization.channelData == member.channelData)
        #expect(
            response.authorization
                == PusherSignature.channelAuthorization(
                    key: Vectors.key, secret: Vectors.secret, socketID: "1234.1234", channel: "presence-foobar",
                    channelData: member.channelData))
    }

    @Test func encryptedChannelsOfTheOfficialLibrary() throws {
        let server = try Self.server()
        for entry in try Vectors.entries("pusher-official.json", "encrypted_channels") {
            let response = try server.authorizeChannel(
                socketID: entry.text("socket_id"), channel: entry.text("channel_name"))
            #expect(response.authorization.auth == (entry.text("auth")))
            #expect(response.authorization.sharedSecret == (entry.text("shared_secret_b64")))
            #expect(response.authorization.channelData == nil)
            let sent = try JSONValue(parsing: response.json)
            #expect(sent["shared_secret"]?.stringValue == (entry.text("shared_secret_b64")))
        }
    }

    @Test func sharedSecretsOfTheHTTPAPIVectors() throws {
        let server = try Self.server()
        for entry in try Vectors.entries("pusher-http-api.json", "shared_secrets") {
            let channel = entry.text("channel_name")
            let response = try server.authorizeChannel(socketID: "1.1", channel: channel)
            #expect(response.authorization.sharedSecret == (entry.text("shared_secret_b64")))
            #expect(
                response.authorization.sharedSecret
                    == (try EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: Vectors.masterKeyBase64)))
        }
    }

    @Test func userAuthenticationOfBothVectorFiles() throws {
        let server = try Self.server()
        let entries =
            try Vectors.entries("pusher-official.json", "user_auth")
            + Vectors.entries("pusher-http-api.json", "user_authentication")
        #expect(entries.count == 3)
        for entry in entries {
            let userData = entry.text("user_data")
            let response = try server.authenticateUser(socketID: entry.text("socket_id"), userData: userData)
            #expect(response.authentication == UserAuthentication(auth: entry.text("auth"), userData: userData))
            let sent = try JSONValue(parsing: response.json)
            #expect(sent == ["auth": .string(entry.text("auth")), "user_data": .string(userData)])
        }
    }

    /// The compact vector of the official library is byte for byte what ``PusherUser`` writes.
    @Test func pusherUserWritesCompactUserData() throws {
        let server = try Self.server()
        let entry = try #require(try Vectors.entries("pusher-official.json", "user_auth").first)
        let response = try server.authenticateUser(socketID: entry.text("socket_id"), user: PusherUser(id: "12345"))
        #expect(response.authentication.userData == (entry.text("user_data")))
        #expect(response.authentication.auth == (entry.text("auth")))

        // The same user as the HTTP API vectors: the same JSON (UTF-8 instead of \u escapes), signed as sent.
        let vector = try #require(try Vectors.entries("pusher-http-api.json", "user_authentication").last)
        let alice = PusherUser(id: "alice", info: ["name": "Alice Ü"], watchlist: ["bob", "carol"])
        let signed = try server.authenticateUser(socketID: "1234.1234", user: alice)
        #expect(
            signed.authentication.userData
                == #"{"id":"alice","user_info":{"name":"Alice Ü"},"watchlist":["bob","carol"]}"#)
        #expect(try JSONValue(parsing: signed.authentication.userData) == JSONValue(parsing: vector.text("user_data")))
        #expect(
            signed.authentication.auth
                == PusherSignature.userAuthentication(
                    key: Vectors.key, secret: Vectors.secret, socketID: "1234.1234",
                    userData: signed.authentication.userData))
        // The client library writes user_data with the same code.
        #expect(
            signed.authentication.userData
                == UserAuthenticator.userData(id: alice.id, info: alice.info, watchlist: alice.watchlist))
    }

    @Test func aFormBodyIsAuthorizedEndToEnd() throws {
        let request = try AuthorizationRequest(formBody: "socket_id=1234.1234&channel_name=private-foobar")
        let response = try Self.server().authorize(request)
        #expect(
            response.json
                == #"{"auth":"278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"}"#)
    }
}
