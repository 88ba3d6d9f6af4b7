// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

// Loopback: webhooks are HTTP requests between two servers.
/// `FakePusherServer`'s webhooks, received by a second fake server's recording endpoint and
/// verified by the library's `WebhookVerifier`.
@Suite("End to end: FakePusherServer webhooks verified by WebhookVerifier", .timeLimit(.minutes(1)))
struct FakeServerWebhookTests {
    static let secret = "webhook-app-secret"

    @Test("occupied, member added, client event, member removed and vacated verify and decode in order")
    func verified() async throws {
        try await FakePusherServer.withRunning { receiver in
            await receiver.setAuthEndpoint(.respond(status: 200, body: "{}"))
            let target = FakePusherServer.WebhookTarget(
                url: "http://127.0.0.1:\(receiver.port)/pusher/auth", key: "hook-key", secret: "hook-secret")
            try await FakePusherServer.withRunning(
                configuration: .init(appSecret: Self.secret, webhooks: target)
            ) { server in
                var options = server.clientConfiguration()
                options.authorizer = .signing(key: server.appKey, secret: Self.secret) { _ in
                    PresenceMember(userID: "dana", userInfo: nil)
                }
                try await withRunningClient(
                    PusherClient(key: server.appKey, configuration: options, clock: VirtualClock())
                ) {
                    client in
                    var roster = client.presence(on: "presence-desk").makeAsyncIterator()
                    _ = try await roster.next()
                    try await client.trigger("client-ping", on: "presence-desk", data: #"{"n":1}"#)
                    await server.waitForMessages(named: "client-ping")
                }
                await receiver.waitUntil { $0.authRequests.count >= 5 }
            }
            let verifier = WebhookVerifier(credentials: [
                WebhookCredential(key: "old-key", secret: "old-secret"),
                WebhookCredential(key: "hook-key", secret: "hook-secret"),
            ])
            var events: [WebhookEvent] = []
            for request in await receiver.snapshot.authRequests {
                let webhook = try verifier.verify(
                    key: request.headers["x-pusher-key"], signature: request.headers["x-pusher-signature"],
                    body: Array(request.body.utf8))
                #expect(webhook.timeMs != nil)
                events += webhook.events
            }
            #expect(
                events.map(\.kind) == [.channelOccupied, .memberAdded, .clientEvent, .memberRemoved, .channelVacated])
            #expect(events.allSatisfy { $0.channel == "presence-desk" })
            #expect(events[1].userID == "dana")
            #expect(events[2].event == "client-ping")
            #expect(events[2].data == #"{"n":1}"#)
            #expect(events[2].userID == "dana")
            #expect(events[2].socketID != nil)

            // The same bytes with one more space no longer verify.
            let first = try #require(await receiver.snapshot.authRequests.first)
            #expect {
                try verifier.verify(
                    key: first.headers["x-pusher-key"], signature: first.headers["x-pusher-signature"],
                    body: Array((first.body + " ").utf8))
            } throws: { error in
                (error as? PusherServerError)?.code == .invalidSignature
            }
        }
    }
}
