// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

// `serve` with the package's own client and server library, and its webhooks.
extension ServeCommandTests {
    static func collect(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
        var events: [ChannelEvent] = []
        for try await event in sequence {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    @Test(
        "PusherClient and PusherServer: subscriptions, socket_id exclusion, batch, queries, users; wrong secret 401"
    )
    func clientAndServerLibrary() async throws {
        let started = try await Self.start()
        let pusher = try Self.publisher(port: started.port)
        var options = PusherClientConfiguration(host: "127.0.0.1", port: started.port, useTLS: false)
        options.authorizer = .signing(key: Self.key, secret: Self.secret) { _ in PresenceMember(userID: "u7") }
        try await withRunningClient(PusherClient(key: Self.key, configuration: options, clock: VirtualClock())) {
            client in
            async let privateEvents = Self.collect(client.events(on: "private-orders"), count: 2)
            async let presenceEvents = Self.collect(client.events(on: "presence-room"), count: 1)
            // Subscribed once the server counts them.
            while try await pusher.channels().channels.count < 2 { await Task.yield() }
            let channel = try await pusher.channel("presence-room", info: [.userCount, .subscriptionCount])
            #expect(channel.occupied)
            #expect(channel.counts.userCount == 1)
            let users = try await pusher.users(inPresenceChannel: "presence-room")
            #expect(users.userIDs == ["u7"])
            let presence = try await pusher.channels(prefix: "presence-", info: [.userCount])
            #expect(Array(presence.channels.keys) == ["presence-room"])

            // Excluded by socket id: never delivered; then a batch.
            guard case .connected(let socketID) = await client.state else {
                Issue.record("the client is not connected")
                return
            }
            _ = try await pusher.trigger(channels: ["private-orders"], event: "skipped", data: "0", socketID: socketID)
            _ = try await pusher.trigger(channels: ["private-orders"], event: "created", data: #"{"id":1}"#)
            _ = try await pusher.triggerBatch([
                BatchEvent(channel: "private-orders", event: "updated", data: #"{"id":1}"#),
                BatchEvent(channel: "presence-room", event: "joined", data: "u8"),
            ])
            #expect(try await privateEvents.map(\.name) == ["created", "updated"])
            #expect(try await presenceEvents.map(\.data) == ["u8"])
        }
        let wrong = try Self.publisher(port: started.port, secret: "wrong")
        await #expect {
            _ = try await wrong.trigger(channels: ["private-orders"], event: "e", data: "x")
        } throws: { error in
            (error as? PusherServerError)?.httpStatus == 401
        }
        await Self.stop(started)
    }

    @Test(
        "every --webhook-url gets each webhook signed with the app's key and secret, in order"
    )
    func webhooks() async throws {
        try await FakePusherServer.withRunning { first in
            try await FakePusherServer.withRunning { second in
                await first.setAuthEndpoint(.respond(status: 200, body: "{}"))
                await second.setAuthEndpoint(.respond(status: 200, body: "{}"))
                let started = try await Self.start([
                    "--app-id", Self.appID, "--key", Self.key, "--secret", Self.secret,
                    "--webhook-url", "http://127.0.0.1:\(first.port)/pusher/auth",
                    "--webhook-url", "http://127.0.0.1:\(second.port)/pusher/auth",
                ])
                var options = PusherClientConfiguration(host: "127.0.0.1", port: started.port, useTLS: false)
                options.authorizer = .signing(key: Self.key, secret: Self.secret) { _ in PresenceMember(userID: "dana")
                }
                try await withRunningClient(PusherClient(key: Self.key, configuration: options, clock: VirtualClock()))
                {
                    client in
                    var roster = client.presence(on: "presence-desk").makeAsyncIterator()
                    _ = try await roster.next()
                    try await client.trigger("client-ping", on: "presence-desk", data: #"{"n":1}"#)
                    await first.waitUntil { $0.authRequests.count >= 3 }
                }
                await first.waitUntil { $0.authRequests.count >= 5 }
                await second.waitUntil { $0.authRequests.count >= 5 }
                await Self.stop(started)
                let verifier = WebhookVerifier(credentials: [WebhookCredential(key: Self.key, secret: Self.secret)])
                for receiver in [first, second] {
                    var events: [WebhookEvent] = []
                    for request in await receiver.snapshot.authRequests {
                        let webhook = try verifier.verify(
                            key: request.headers["x-pusher-key"], signature: request.headers["x-pusher-signature"],
                            body: Array(request.body.utf8))
                        #expect(webhook.timeMs?.intValue != nil, "time_ms: \(String(describing: webhook.timeMs))")
                        #expect(
                            request.headers["x-pusher-signature"]?.allSatisfy { "0123456789abcdef".contains($0) }
                                == true)
                        events += webhook.events
                    }
                    #expect(
                        events.map(\.kind) == [
                            .channelOccupied, .memberAdded, .clientEvent, .memberRemoved, .channelVacated,
                        ])
                    #expect(events.allSatisfy { $0.channel == "presence-desk" })
                    #expect(events[1].userID == "dana")
                    #expect(events[2].event == "client-ping")
                    #expect(events[2].data == #"{"n":1}"#)
                    #expect(events[2].userID == "dana")
                    #expect(events[2].socketID != nil)
                    #expect(events[3].userID == "dana")
                }
            }
        }
    }
}
