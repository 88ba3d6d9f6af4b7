// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels
import PusherChannelsTesting
import Testing

// Loopback: HTTP API queries and webhooks only exist over HTTP, end to end.
@Suite("Fake server: HTTP API queries and webhooks", .timeLimit(.minutes(1)))
struct FakeServerQueryAndWebhookTests {
    static let secret = "api-secret"

    static func presenceOptions(_ server: FakePusherServer, user: String) -> PusherClientConfiguration {
        var options = server.clientConfiguration()
        options.authorizer = .signing(key: server.appKey, secret: Self.secret) { _ in
            PresenceMember(userID: user, userInfo: nil)
        }
        return options
    }

    @Test("channels, channel and users answer from the server's real state; invalid queries get 400")
    func queries() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let api = SignedAPIClient(server)
            let alice = PusherClient(
                key: server.appKey, configuration: Self.presenceOptions(server, user: "alice"), clock: VirtualClock())
            let alsoAlice = PusherClient(
                key: server.appKey, configuration: Self.presenceOptions(server, user: "alice"), clock: VirtualClock())
            let bob = PusherClient(
                key: server.appKey, configuration: Self.presenceOptions(server, user: "bob"), clock: VirtualClock())
            try await withRunningClient(alice) { alice in
                try await withRunningClient(alsoAlice) { alsoAlice in
                    try await withRunningClient(bob) { bob in
                        var rosters = [
                            alice.presence(on: "presence-room").makeAsyncIterator(),
                            alsoAlice.presence(on: "presence-room").makeAsyncIterator(),
                            bob.presence(on: "presence-room").makeAsyncIterator(),
                        ]
                        for index in rosters.indices { _ = try await rosters[index].next() }
                        async let prices = collect(bob.events(on: "prices"), count: 1)
                        await server.waitForSubscribers(of: "prices")

                        let room = try await api.send(
                            .GET, "channels/presence-room", query: [("info", "user_count,subscription_count")])
                        #expect(room.status == 200)
                        #expect(room.body == #"{"occupied":true,"subscription_count":3,"user_count":2}"#)
                        let plain = try await api.send(.GET, "channels/prices")
                        #expect(plain.body == #"{"occupied":true}"#)
                        let empty = try await api.send(.GET, "channels/nobody", query: [("info", "subscription_count")])
                        #expect(empty.body == #"{"occupied":false,"subscription_count":0}"#)
                        let all = try await api.send(.GET, "channels")
                        #expect(all.body == #"{"channels":{"presence-room":{},"prices":{}}}"#)
                        let presence = try await api.send(
                            .GET, "channels", query: [("filter_by_prefix", "presence-"), ("info", "user_count")])
                        #expect(presence.body == #"{"channels":{"presence-room":{"user_count":2}}}"#)
                        let users = try await api.send(.GET, "channels/presence-room/users")
                        #expect(users.body == #"{"users":[{"id":"alice"},{"id":"bob"}]}"#)
                        let triggered = try await api.trigger(
                            ["presence-room"], data: "{}", info: "user_count,subscription_count")
                        #expect(
                            triggered.body == #"{"channels":{"presence-room":{"subscription_count":3,"user_count":2}}}"#
                        )

                        #expect(try await api.send(.GET, "channels", query: [("info", "user_count")]).status == 400)
                        #expect(
                            try await api.send(.GET, "channels/prices", query: [("info", "user_count")]).status == 400)
                        #expect(try await api.send(.GET, "channels/prices/users").status == 400)
                        #expect(try await api.send(.GET, "nothing-here").status == 404)
                        await server.trigger(channel: "prices", event: "done", data: "{}")
                        _ = try await prices
                    }
                }
            }
        }
    }

    @Test("terminate_connections closes the user's signed-in connections; send-to-user reaches them")
    func usersEndpoints() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let api = SignedAPIClient(server)
            var options = server.clientConfiguration()
            options.userAuthenticator = .signing(key: server.appKey, secret: Self.secret) {
                UserAuthenticator.userData(id: "carol")
            }
            try await withRunningClient(PusherClient(key: server.appKey, configuration: options, clock: VirtualClock()))
            {
                client in
                async let userEvents = collect(client.userEvents(), count: 1)
                try await client.signIn()
                await server.waitForSubscribers(of: "#server-to-user-carol")
                let sent = try await api.trigger(["#server-to-user-carol"], event: "hello", data: #"{"hi":1}"#)
                #expect(sent.status == 200)
                #expect(try await userEvents.map(\.data) == [#"{"hi":1}"#])
                let answer = try await api.send(.POST, "users/carol/terminate_connections", body: "{}")
                #expect(answer.status == 200)
                await server.waitUntil { $0.connections.first?.isOpen == false }
            }
        }
    }

    @Test("webhooks: occupied, member added, client event, member removed, vacated; signed; failures counted")
    func webhooks() async throws {
        try await FakePusherServer.withRunning { receiver in
            await receiver.setAuthEndpoint(.respond(status: 200, body: "{}"))
            let target = FakePusherServer.WebhookTarget(
                url: "http://127.0.0.1:\(receiver.port)/pusher/auth", key: "hook-key", secret: "hook-secret")
            let configuration = FakePusherServer.Configuration(appSecret: Self.secret, webhooks: target)
            try await FakePusherServer.withRunning(configuration: configuration) { server in
                let alice = PusherClient(
                    key: server.appKey, configuration: Self.presenceOptions(server, user: "alice"),
                    clock: VirtualClock())
                try await withRunningClient(alice) { alice in
                    var roster = alice.presence(on: "presence-room").makeAsyncIterator()
                    _ = try await roster.next()
                    try await alice.trigger("client-typing", on: "presence-room", data: #"{"now":true}"#)
                    await server.waitForMessages(named: "client-typing")
                }
                await receiver.waitUntil { $0.authRequests.count >= 5 }
                let requests = await receiver.snapshot.authRequests
                for request in requests {
                    #expect(request.headers["x-pusher-key"] == "hook-key")
                    #expect(
                        request.headers["x-pusher-signature"]
                            == HMACSHA256.hex(key: "hook-secret", message: request.body))
                }
                let events = try requests.map { try JSONValue(parsing: $0.body)["events"] }
                let names = events.map { $0?.arrayFirst?["name"]?.stringValue }
                #expect(
                    names == ["channel_occupied", "member_added", "client_event", "member_removed", "channel_vacated"])
                #expect(events.allSatisfy { $0?.arrayFirst?["channel"] == "presence-room" })
                let clientEvent = try #require(events[2]?.arrayFirst)
                #expect(clientEvent["event"] == "client-typing")
                #expect(clientEvent["data"] == #"{"now":true}"#)
                #expect(clientEvent["user_id"] == "alice")
                let socketID = await server.snapshot.connections.first?.socketID
                #expect(clientEvent["socket_id"]?.stringValue == socketID)
                #expect(events[1]?.arrayFirst?["user_id"] == "alice")
                #expect(try JSONValue(parsing: requests[0].body)["time_ms"]?.intValue != nil)
                await server.waitUntil { $0.webhooksDelivered == 5 }

                await receiver.setAuthEndpoint(.respond(status: 500, body: "down"))
                let late = PusherClient(
                    key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
                try await withRunningClient(late) { late in
                    async let news = collect(late.events(on: "news"), count: 1)
                    await server.waitForSubscribers(of: "news")
                    await server.waitUntil { $0.webhooksFailed == 1 }
                    await server.trigger(channel: "news", event: "done", data: "{}")
                    _ = try await news
                }
                #expect(await server.snapshot.webhooksDelivered == 5)
            }
        }
    }
}

extension JSONValue {
    fileprivate var arrayFirst: JSONValue? {
        if case .array(let values) = self { return values.first }
        return nil
    }
}
