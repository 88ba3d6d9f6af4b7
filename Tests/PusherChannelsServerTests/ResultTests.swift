// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// Typed results from the HTTP API's answers, each keeping the body as returned.
@Suite("Typed results")
struct ResultTests {
    static func server(answering body: String) throws -> (PusherServer, RecordingTransport) {
        let transport = RecordingTransport(response: .init(status: 200, body: body))
        return (try TestApp.server(transport: transport), transport)
    }

    static func field(_ value: JSONValue, _ name: String) -> JSONValue? {
        guard case .object(let fields) = value else { return nil }
        return fields[name]
    }

    @Test("a trigger's counts by channel")
    func trigger() async throws {
        let body = #"{"channels":{"presence-a":{"subscription_count":4,"user_count":2},"b":{"subscription_count":1}}}"#
        let (server, _) = try Self.server(answering: body)
        let result = try await server.trigger(
            channels: ["presence-a", "b"], event: "e", data: "{}", info: [.subscriptionCount, .userCount])
        #expect(result.channels["presence-a"] == ChannelCounts(subscriptionCount: 4, userCount: 2))
        #expect(result.channels["b"] == ChannelCounts(subscriptionCount: 1))
        #expect(result.responseBody == body)
        let (empty, _) = try Self.server(answering: "{}")
        #expect(try await empty.trigger(channel: "c", event: "e", data: "{}").channels.isEmpty)
    }

    @Test("a batch keeps the caller's order in the request and in the result")
    func batch() async throws {
        let body = #"{"batch":[{"subscription_count":3},{},{"user_count":1,"subscription_count":2}]}"#
        let (server, transport) = try Self.server(answering: body)
        let result = try await server.triggerBatch([
            BatchEvent(channel: "z", event: "first", data: "1", info: [.subscriptionCount]),
            BatchEvent(channel: "a", event: "second", data: "2"),
            try BatchEvent(
                channel: "presence-m", event: "third", data: ["n": 3], info: [.userCount, .subscriptionCount]),
        ])
        #expect(
            result.events == [
                ChannelCounts(subscriptionCount: 3), ChannelCounts(), ChannelCounts(subscriptionCount: 2, userCount: 1),
            ])
        let sent = try JSONValue(
            parsing: String(decoding: try #require(await transport.requests.first).body, as: UTF8.self))
        guard case .object(let fields) = sent, case .array(let events)? = fields["batch"] else {
            Issue.record("not a batch: \(sent)")
            return
        }
        let names: [JSONValue?] = events.map { Self.field($0, "name") }
        #expect(names == ["first", "second", "third"])
        let channels: [JSONValue?] = events.map { Self.field($0, "channel") }
        #expect(channels == ["z", "a", "presence-m"])
        guard case .object(let third) = events[2] else { return }
        #expect(third["data"] == #"{"n":3}"#)
        #expect(third["info"] == "user_count,subscription_count")
    }

    @Test("channels, one channel and presence users")
    func queries() async throws {
        let (channelsServer, channelsTransport) = try Self.server(
            answering: #"{"channels":{"presence-a":{"user_count":2},"presence-b":{}}}"#)
        let channels = try await channelsServer.channels(prefix: "presence-", info: [.userCount])
        #expect(channels.channels == ["presence-a": ChannelCounts(userCount: 2), "presence-b": ChannelCounts()])
        #expect(await channelsTransport.requests.first?.path == "/apps/1234/channels")

        let (channelServer, _) = try Self.server(answering: #"{"occupied":true,"subscription_count":7}"#)
        let channel = try await channelServer.channel("private-a", info: [.subscriptionCount])
        #expect(channel.name == "private-a")
        #expect(channel.occupied)
        #expect(channel.counts.subscriptionCount == 7)

        let (usersServer, _) = try Self.server(answering: #"{"users":[{"id":"alice"},{"id":42}]}"#)
        let users = try await usersServer.users(inPresenceChannel: "presence-a")
        #expect(users.userIDs == ["alice", "42"])
        #expect(users.responseBody == #"{"users":[{"id":"alice"},{"id":42}]}"#)
    }

    @Test(
        "answers of the wrong shape are undecodableResponse",
        arguments: [
            #"[]"#, #"{"channels":[]}"#, #"{"channels":{"a":{"user_count":"2"}}}"#, #"{"channels":{"a":1}}"#,
            "not json",
        ])
    func wrongShapes(body: String) async throws {
        let (server, _) = try Self.server(answering: body)
        do {
            _ = try await server.channels()
            Issue.record("accepted \(body)")
        } catch {
            #expect(error.code == .undecodableResponse)
            #expect(error.responseBody == body)
        }
    }

    @Test("send to user is a trigger on #server-to-user-ID; terminate posts {} to the user's path")
    func users() async throws {
        let (server, transport) = try Self.server(answering: "{}")
        try await server.sendToUser("user-1", event: "e", data: ["a": 1])
        try await server.terminateConnections(ofUser: "user-1")
        let requests = await transport.requests
        try #require(requests.count == 2)
        #expect(
            String(decoding: requests[0].body, as: UTF8.self)
                == ##"{"name":"e","channels":["#server-to-user-user-1"],"data":"{\"a\":1}"}"##)
        #expect(requests[1].path == "/apps/1234/users/user-1/terminate_connections")
        #expect(requests[1].body == Array("{}".utf8))
    }

    @Test("the signer refuses auth_* and body_md5 parameters given by a caller")
    func reservedParameters() throws {
        let signer = RequestSigner(key: TestApp.key, secret: TestApp.secret)
        for name in ["auth_key", "AUTH_SIGNATURE", "auth_timestamp", "auth_version", "body_md5", "auth_other"] {
            let request = PusherAPIRequest(method: .get, path: "/apps/1/channels", query: [.init(name, "x")])
            #expect(throws: PusherServerError.self) { try signer.sign(request, timestamp: 1) }
        }
    }
}
