// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Provided authorizations", .timeLimit(.minutes(1)))
struct ProvidedAuthorizationTests {
    static let secret = "provided-secret"
    static let server = FakePusherServer.Configuration(appSecret: secret)

    /// What a user's backend would return for `channel` on `socketID`.
    func authorization(_ socketID: String, _ channel: String, channelData: String? = nil) -> ChannelAuthorization {
        PusherSignature.channelAuthorization(
            key: Self.server.appKey,
            secret: Self.secret,
            socketID: socketID,
            channel: channel,
            channelData: channelData
        )
    }

    @Test("a provided authorization subscribes without an authorizer, once; after a reconnect it is not resent")
    func usedOnceWithoutAuthorizer() async throws {
        try await withHarness(server: Self.server) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let socketID = try #require(await states.connectedSocketID())
            let provided = ProvidedAuthorization(self.authorization(socketID, "private-orders"), socketID: socketID)
            var signals = harness.client.subscriptionEvents(on: "private-orders").makeAsyncIterator()
            let consumer = Task {
                var received: [String] = []
                for try await event in harness.client.events(on: "private-orders", authorization: provided) {
                    received.append(event.data)
                }
                return received
            }
            let succeeded = await signals.next()
            #expect(succeeded == .succeeded(channel: "private-orders", isResubscription: false))

            // The next connection has another socket id: the provided authorization cannot be
            // used again, and there is no authorizer to ask.
            await harness.server.close(code: 4200, reason: "reconnect")
            let failed = await signals.next()
            guard case .failed(let channel, let error) = failed else {
                Issue.record("expected a failure, got \(String(describing: failed))")
                return
            }
            #expect(channel == "private-orders")
            #expect(error.code == .authorizationRequired)
            await #expect {
                _ = try await consumer.value
            } throws: { error in
                (error as? PusherError)?.code == .authorizationRequired
            }
            let subscribes = await harness.server.snapshot.messages(named: "pusher:subscribe")
            #expect(subscribes.count == 1)
            let auth = try subscribes.first?.message?.parsedData()["auth"]?.stringValue
            #expect(auth == provided.authorization.auth)
        }
    }

    @Test("the event sent before the reconnect reaches the consumer")
    func eventsFlowWithProvidedAuthorization() async throws {
        try await withHarness(server: Self.server) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let socketID = try #require(await states.connectedSocketID())
            let provided = ProvidedAuthorization(self.authorization(socketID, "private-orders"), socketID: socketID)
            async let events = collect(harness.client.events(on: "private-orders", authorization: provided), count: 1)
            await harness.server.waitForSubscribers(of: "private-orders")
            await harness.server.trigger(channel: "private-orders", event: "created", data: "order-1")
            let received = try await events
            #expect(received.map(\.data) == ["order-1"])
        }
    }

    @Test("an authorization for another socket id is not sent; the authorizer is asked instead")
    func staleProvidedAuthorizationFallsBackToAuthorizer() async throws {
        let script = AuthorizerScript(key: Self.server.appKey, secret: Self.secret)
        let authorizer = await script.authorizer
        try await withHarness(server: Self.server, options: { $0.authorizer = authorizer }) { harness in
            let stale = ProvidedAuthorization(self.authorization("1.1", "private-orders"), socketID: "1.1")
            var signals = harness.client.subscriptionEvents(on: "private-orders").makeAsyncIterator()
            async let events = collect(harness.client.events(on: "private-orders", authorization: stale), count: 1)
            let succeeded = await signals.next()
            #expect(succeeded == .succeeded(channel: "private-orders", isResubscription: false))
            let requests = await script.requests
            #expect(requests.map(\.channel) == ["private-orders"])
            let auths = await harness.server.snapshot.messages(named: "pusher:subscribe").compactMap {
                try? $0.message?.parsedData()["auth"]?.stringValue
            }
            #expect(auths.count == 1 && auths.first != stale.authorization.auth)
            await harness.server.trigger(channel: "private-orders", event: "created", data: "x")
            _ = try await events
        }
    }

    @Test("a provided presence authorization names me with its channel_data")
    func presence() async throws {
        try await withHarness(server: Self.server) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let socketID = try #require(await states.connectedSocketID())
            let channelData = #"{"user_id":"u-7","user_info":{"name":"Seven"}}"#
            let provided = ProvidedAuthorization(
                self.authorization(socketID, "presence-room", channelData: channelData),
                socketID: socketID
            )
            var changes = harness.client.presence(on: "presence-room", authorization: provided).makeAsyncIterator()
            let first = try await changes.next()
            guard case .snapshot(let snapshot) = first else {
                Issue.record("expected a snapshot, got \(String(describing: first))")
                return
            }
            #expect(snapshot.me?.userID == "u-7")
            #expect(snapshot.members.map(\.userID) == ["u-7"])
        }
    }

    @Test("public channels refuse a provided authorization", arguments: ["news", "cache-news"])
    func refusedForPublicChannels(channel: String) async throws {
        try await withHarness { harness in
            let provided = ProvidedAuthorization(ChannelAuthorization(auth: "key:sig"), socketID: "1.1")
            await #expect {
                for try await _ in harness.client.events(on: channel, authorization: provided) {}
            } throws: { error in
                (error as? PusherError)?.code == .invalidConfiguration
            }
        }
    }
}
