// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// The form body clients POST to an authorization endpoint, decoded and validated.
@Suite struct AuthorizationRequestTests {
    @Test func decodesWhatPusherJSSends() throws {
        let request = try AuthorizationRequest(formBody: "socket_id=123.456&channel_name=private-foo")
        #expect(request.socketID == "123.456")
        #expect(request.channelName == "private-foo")
        #expect(request.parameters.isEmpty)
    }

    @Test func userSignInSendsOnlyTheSocketID() throws {
        let request = try AuthorizationRequest(formBody: "socket_id=1.2")
        #expect(request.socketID == "1.2")
        #expect(request.channelName == nil)
    }

    @Test func percentEscapesAndPlusAreDecodedInNamesAndValues() throws {
        let request = try AuthorizationRequest(
            formBody: "channel%5Fname=presence-a%40b%2Cc%3Bd&socket%5Fid=9%2E8&user=J%C3%BCrgen+M%2Bller&x")
        #expect(request.channelName == "presence-a@b,c;d")
        #expect(request.socketID == "9.8")
        #expect(request.parameters == ["user": "Jürgen M+ller", "x": ""])
    }

    @Test func emptyPiecesAreSkippedAndOtherFieldsKept() throws {
        let request = try AuthorizationRequest(formBody: "&socket_id=1.2&&channel_name=private-x&team=a&team=b&")
        #expect(request.channelName == "private-x")
        #expect(request.parameters == ["team": "b"])
    }

    @Test(
        "invalid socket ids are refused",
        arguments: [
            "", "1", "1.", ".1", "1.2.3", "a.1", "1.2 ", " 1.2", "1,2", "-1.2", "１.2",
            "1.2%0A", String(repeating: "1", count: 32) + "." + String(repeating: "2", count: 32),
        ]
    )
    func invalidSocketID(socketID: String) {
        let error = #expect(throws: PusherServerError.self) {
            try AuthorizationRequest(formBody: "socket_id=\(socketID)&channel_name=private-x")
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(
        "invalid channel names are refused",
        arguments: [
            "channel_name=", "channel_name=private-a%20b", "channel_name=private-a%2Fb",
            "channel_name=%23server-to-user-1",
            "channel_name=private-%C3%BC", "channel_name=" + "private-" + String(repeating: "x", count: 157),
            "channel_name=private-a&channel_name=private-b",
        ]
    )
    func invalidChannelName(field: String) {
        let error = #expect(throws: PusherServerError.self) {
            try AuthorizationRequest(formBody: "socket_id=1.2&" + field)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func theLongestSocketIDIsAccepted() throws {
        let socketID = String(repeating: "1", count: 32) + "." + String(repeating: "2", count: 31)
        #expect(try AuthorizationRequest(formBody: "socket_id=" + socketID).socketID == socketID)
    }

    @Test func theLongestChannelNameIsAccepted() throws {
        let name = "private-" + String(repeating: "x", count: 156)
        #expect(try AuthorizationRequest(formBody: "socket_id=1.2&channel_name=" + name).channelName == name)
    }

    @Test(
        "malformed forms are refused",
        arguments: [
            "socket_id=1%2", "socket_id=1%.2", "socket_id=1%zz.2", "socket_id=1.2&channel_name=private-%ff",
            "channel_name=private-x", "", "socket_id=1.2&socket_id=1.2",
        ]
    )
    func malformedForm(body: String) {
        let error = #expect(throws: PusherServerError.self) { try AuthorizationRequest(formBody: body) }
        #expect(error?.code == .invalidArgument)
    }
}
