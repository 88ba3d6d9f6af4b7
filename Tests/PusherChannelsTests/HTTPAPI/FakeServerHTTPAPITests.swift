// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOPosix
import PusherChannels
import PusherChannelsTesting
import Testing

// Loopback: the HTTP API only exists over HTTP; requests and the events they deliver travel end to end.
@Suite("Fake server: the Channels HTTP API", .timeLimit(.minutes(1)))
struct FakeServerHTTPAPITests {
    static let secret = "api-secret"
    static let configuration = FakePusherServer.Configuration(appSecret: secret, appID: "4321")

    @Test("a signed trigger reaches a subscribed client; the answer is {} or the channels' info")
    func triggerReachesSubscriber() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server in
            let api = SignedAPIClient(server)
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(client) { client in
                async let events = collect(client.events(on: "prices"), count: 2)
                await server.waitForSubscribers(of: "prices")
                let plain = try await api.trigger(["prices", "other"], event: "new-price", data: #"{"price":1}"#)
                #expect(plain.status == 200)
                #expect(plain.body == "{}")
                let withInfo = try await api.trigger(
                    ["prices"], event: "new-price", data: #"{"price":2}"#, info: "subscription_count")
                #expect(withInfo.status == 200)
                #expect(withInfo.body == #"{"channels":{"prices":{"subscription_count":1}}}"#)
                let received = try await events
                #expect(received.map(\.name) == ["new-price", "new-price"])
                #expect(received.map(\.data) == [#"{"price":1}"#, #"{"price":2}"#])
            }
        }
    }

    @Test("socket_id excludes that connection; batch events arrive in order with per-event info")
    func socketIDExclusionAndBatch() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server in
            let api = SignedAPIClient(server)
            let first = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            let second = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(first) { first in
                await server.waitForConnections(count: 1)
                let excluded = try #require(await server.snapshot.connections.first?.socketID)
                try await withRunningClient(second) { second in
                    async let firstEvents = collect(first.events(on: "room"), count: 1)
                    async let secondEvents = collect(second.events(on: "room"), count: 2)
                    await server.waitForSubscribers(of: "room", count: 2)
                    let skipped = try await api.trigger(["room"], event: "skip", data: "a", socketID: excluded)
                    #expect(skipped.status == 200)
                    let batch = JSONValue.object([
                        "batch": [
                            ["channel": "room", "name": "one", "data": "1", "info": "subscription_count"],
                            ["channel": "room", "name": "two", "data": "2"],
                        ]
                    ])
                    let answer = try await api.send(.POST, "batch_events", body: batch.jsonText)
                    #expect(answer.status == 200)
                    #expect(answer.body == #"{"batch":[{"subscription_count":2},{}]}"#)
                    // The excluded connection's first event is the batch's, not the skipped one.
                    #expect(try await firstEvents.map(\.name) == ["one"])
                    #expect(try await secondEvents.map(\.name) == ["skip", "one"])
                }
            }
        }
    }

    @Test("key, timestamp, body_md5 and signature are checked: 401 with Pusher's messages; another app 404")
    func authentication() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server in
            let api = SignedAPIClient(server)
            let data = #"{"x":1}"#
            var unknownKey = api
            unknownKey.key = "someone-else"
            let key = try await unknownKey.trigger(["c"], data: data)
            #expect(key.status == 401)
            #expect(key.body.hasPrefix("Unknown auth_key"))

            // A minute on either side of the ±600 s window, so a slow run (ThreadSanitizer) cannot move
            // a timestamp across it between signing and checking.
            let expired = try await api.trigger(["c"], data: data, tampering: .init(timestampOffset: -660))
            #expect(expired.status == 401)
            #expect(expired.body.hasPrefix("Timestamp expired"))
            let future = try await api.trigger(["c"], data: data, tampering: .init(timestampOffset: 660))
            #expect(future.status == 401)
            let skewed = try await api.trigger(["c"], data: data, tampering: .init(timestampOffset: -540))
            #expect(skewed.status == 200)

            let md5 = try await api.trigger(["c"], data: data, tampering: .init(md5Body: "{}"))
            #expect(md5.status == 401)
            #expect(md5.body.contains("body_md5"))

            var wrongSecret = api
            wrongSecret.secret = "not-the-secret"
            let signature = try await wrongSecret.trigger(["c"], data: data)
            #expect(signature.status == 401)
            #expect(
                signature.body.hasPrefix("Invalid signature: Expected HMAC SHA256 hex digest of POST\\n/apps/4321/"))

            // A parameter added after signing changes what the signature must cover.
            let added = try await api.trigger(["c"], data: data, tampering: .init(extraQuery: [("extra", "1")]))
            #expect(added.status == 401)

            var otherApp = api
            otherApp.appID = "9999"
            #expect(try await otherApp.trigger(["c"], data: data).status == 404)

            // Values are signed decoded: a prefix with characters that are percent-encoded on the wire.
            let query = try await api.send(.GET, "channels", query: [("filter_by_prefix", "a b&c=d")])
            #expect(query.status == 200)
            #expect(query.body == #"{"channels":{}}"#)
        }
    }

    @Test("limits: 101 channels and 11 batch events get 400, 10,241 bytes of data 413; at the limits 200")
    func limits() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server in
            let api = SignedAPIClient(server)
            let hundred = (1...100).map { "c\($0)" }
            #expect(try await api.trigger(hundred, data: "{}").status == 200)
            let tooMany = try await api.trigger(hundred + ["c101"], data: "{}")
            #expect(tooMany.status == 400)
            #expect(tooMany.body.contains("Too many channels"))

            let atLimit = String(repeating: "é", count: 5_120)
            #expect(try await api.trigger(["c"], data: atLimit).status == 200)
            let over = try await api.trigger(["c"], data: atLimit + "x")
            #expect(over.status == 413)

            let event: JSONValue = ["channel": "c", "name": "e", "data": "{}"]
            let ten = JSONValue.object(["batch": .array(Array(repeating: event, count: 10))]).jsonText
            #expect(try await api.send(.POST, "batch_events", body: ten).status == 200)
            let eleven = JSONValue.object(["batch": .array(Array(repeating: event, count: 11))]).jsonText
            #expect(try await api.send(.POST, "batch_events", body: eleven).status == 400)

            #expect(try await api.send(.POST, "events", body: "{not json").status == 400)
            #expect(try await api.send(.POST, "events", body: #"{"name":"e","data":"x"}"#).status == 400)
            #expect(try await api.trigger(["bad channel"], data: "{}").status == 400)
            #expect(try await api.trigger(["c"], data: "{}", socketID: "12").status == 400)
            #expect(try await api.trigger(["private-encrypted-a", "c"], data: "{}").status == 400)
        }
    }

    @Test("limits are configurable: .none accepts what Pusher refuses")
    func noLimits() async throws {
        var configuration = Self.configuration
        configuration.triggerLimits = .none
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let api = SignedAPIClient(server)
            let channels = (1...101).map { "c\($0)" }
            let answer = try await api.trigger(channels, data: String(repeating: "x", count: 20_000))
            #expect(answer.status == 200)
        }
    }

    @Test("without an app secret every API request gets 401")
    func noSecret() async throws {
        try await FakePusherServer.withRunning { server in
            var api = SignedAPIClient(server)
            api.secret = "guess"
            let answer = try await api.send(.GET, "channels")
            #expect(answer.status == 401)
            #expect(answer.body.contains("no app secret"))
        }
    }

    @Test("HTTP API requests keep the connection open: two requests answered on one socket")
    func keepAlive() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server in
            let target = SignedAPIClient(server).signedTarget(.GET, "channels")
            let request = ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: server.host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            let answers = try await channel.executeThenClose { inbound, outbound in
                var received = ""
                var chunks = inbound.makeAsyncIterator()
                var answers = 0
                for _ in 0..<2 {
                    try await outbound.write(request)
                    // Read until one more answer is complete, or the server closes the connection.
                    while answers == received.ranges(of: #"{"channels":{}}"#).count,
                        let chunk = try await chunks.next()
                    {
                        received += String(buffer: chunk)
                    }
                    answers = received.ranges(of: #"{"channels":{}}"#).count
                }
                return answers
            }
            #expect(answers == 2)
        }
    }
}
