// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// What authorizing refuses, with a typed error and nothing signed.
@Suite struct AuthorizationRefusalTests {
    let server: PusherServer
    let member = PresenceMember(userID: "alice")

    init() throws {
        self.server = try ClientAuthorizationTests.server()
    }

    @Test(arguments: ["my-channel", "cache-my-channel", "public"])
    func publicChannelsAreNotAuthorized(channel: String) {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authorizeChannel(socketID: "1.2", channel: channel, member: self.member)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(arguments: ["", "1", "1.2.3", "a.b", "1.2\n"])
    func invalidSocketIDs(socketID: String) {
        let channelError = #expect(throws: PusherServerError.self) {
            try self.server.authorizeChannel(socketID: socketID, channel: "private-x")
        }
        #expect(channelError?.code == .invalidArgument)
        let userError = #expect(throws: PusherServerError.self) {
            try self.server.authenticateUser(socketID: socketID, user: PusherUser(id: "alice"))
        }
        #expect(userError?.code == .invalidArgument)
    }

    @Test(arguments: [
        "private-ü", "private-a b", "#server-to-user-alice", "private-" + String(repeating: "x", count: 200),
    ])
    func invalidChannelNames(channel: String) {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authorizeChannel(socketID: "1.2", channel: channel)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func presenceNeedsAMember() {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authorizeChannel(socketID: "1.2", channel: "presence-room")
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(arguments: ["", "[]", #"{"user_info":{}}"#, #"{"user_id":""}"#, #"{"user_id":null}"#, "{"])
    func presenceChannelDataNeedsAUserID(channelData: String) {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authorizeChannel(socketID: "1.2", channel: "presence-room", channelData: channelData)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aMemberIsIgnoredOutsidePresenceChannels() throws {
        let response = try self.server.authorizeChannel(socketID: "1.2", channel: "private-x", member: self.member)
        #expect(response.authorization.channelData == nil)
        let raw = try self.server.authorizeChannel(socketID: "1.2", channel: "private-x", channelData: "{}")
        #expect(raw.authorization == response.authorization)
    }

    @Test func encryptedChannelsNeedTheMasterKey() throws {
        let server = try ClientAuthorizationTests.server(withMasterKey: false)
        let error = #expect(throws: PusherServerError.self) {
            try server.authorizeChannel(socketID: "1.2", channel: "private-encrypted-x")
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(try server.authorizeChannel(socketID: "1.2", channel: "private-x").authorization.sharedSecret == nil)
    }

    @Test func aUserNeedsAnID() {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authenticateUser(socketID: "1.2", user: PusherUser(id: ""))
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(
        arguments: [
            "", "[]", "{}", #"{"id":""}"#, #"{"id":12}"#, #"{"id":"a","watchlist":"b"}"#,
            #"{"id":"a","watchlist":[1]}"#, #"{"id":"a"} x"#,
        ])
    func invalidUserData(userData: String) {
        let error = #expect(throws: PusherServerError.self) {
            try self.server.authenticateUser(socketID: "1.2", userData: userData)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func aSignInRequestIsNotAChannelAuthorization() throws {
        let request = try AuthorizationRequest(formBody: "socket_id=1.2")
        let error = #expect(throws: PusherServerError.self) { try self.server.authorize(request) }
        #expect(error?.code == .invalidArgument)
    }
}
