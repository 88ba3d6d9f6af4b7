// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

// Loopback: ports and webhooks are about real sockets and HTTP requests.
/// `FakePusherServer`'s fixed port, its webhook target set while it runs, and webhook targets that
/// default to the server's own key and secret.
@Suite("FakePusherServer: fixed port and webhook target", .timeLimit(.minutes(1)))
struct FakeServerConfigurationTests {
    static let secret = "configuration-secret"

    @Test("a fixed port is listened on; one in use, or out of range, is a typed error")
    func fixedPort() async throws {
        // A port that was free a moment ago (the first server took any free one and stopped).
        let port = try await FakePusherServer.withRunning { $0.port }
        try await FakePusherServer.withRunning(configuration: .init(port: port)) { server in
            #expect(server.port == port)
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(client) { _ in await server.waitForConnections(count: 1) }

            await #expect {
                try await FakePusherServer.withRunning(configuration: .init(port: port)) { _ in }
            } throws: { error in
                (error as? PusherError)?.code == .transportFailed
            }
        }
        await #expect {
            try await FakePusherServer.withRunning(configuration: .init(port: 70_000)) { _ in }
        } throws: { error in
            (error as? PusherError)?.code == .invalidConfiguration
        }
    }

    @Test(
        "a webhook target set while the server runs gets the webhooks from then on, signed with the app's key and secret"
    )
    func webhookTargetSetWhileRunning() async throws {
        try await FakePusherServer.withRunning { receiver in
            // The receiver records each webhook as a request to its auth endpoint.
            await receiver.setAuthEndpoint(.respond(status: 200, body: "{}"))
            try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
                let client = PusherClient(
                    key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
                try await withRunningClient(client) { client in
                    // Occupied and vacated with no target: nothing is sent.
                    try await client.withSubscription(to: "before") { _ in }
                    await server.waitUntil { $0.subscribers(of: "before") == 0 }

                    try await server.setWebhookTarget(.init(url: "http://127.0.0.1:\(receiver.port)/pusher/auth"))
                    try await client.withSubscription(to: "during") { _ in }
                    await server.waitUntil { $0.webhooksDelivered == 2 }

                    try await server.setWebhookTarget(nil)
                    try await client.withSubscription(to: "after") { _ in }
                    await server.waitUntil { $0.subscribers(of: "after") == 0 }
                }
                #expect(await server.snapshot.webhooksDelivered == 2)
                #expect(await server.snapshot.webhooksFailed == 0)
            }
            // Verified with the server's own key and secret, which the target did not repeat.
            let verifier = WebhookVerifier(credentials: [WebhookCredential(key: "fake-app-key", secret: Self.secret)])
            let requests = await receiver.snapshot.authRequests
            let events = try requests.flatMap { request in
                try verifier.verify(
                    key: request.headers["x-pusher-key"], signature: request.headers["x-pusher-signature"],
                    body: Array(request.body.utf8)
                ).events
            }
            #expect(events.map(\.kind) == [.channelOccupied, .channelVacated])
            #expect(events.map(\.channel) == ["during", "during"])
        }
    }

    @Test("a webhook target with no secret to sign with, or a URL that is not HTTP, is a typed error")
    func webhookTargetWithoutSecret() async throws {
        let unsigned = FakePusherServer.WebhookTarget(url: "http://127.0.0.1:9/hooks")
        await #expect {
            try await FakePusherServer.withRunning(configuration: .init(webhooks: unsigned)) { _ in }
        } throws: { error in
            (error as? PusherError)?.code == .invalidConfiguration
        }
        try await FakePusherServer.withRunning { server in
            await #expect(throws: PusherError.self) { try await server.setWebhookTarget(unsigned) }
            let notHTTP = FakePusherServer.WebhookTarget(url: "ws://127.0.0.1:9/hooks", secret: "s")
            await #expect(throws: PusherError.self) { try await server.setWebhookTarget(notHTTP) }
            // An explicit key and secret are still honoured without an app secret.
            try await server.setWebhookTarget(.init(url: "http://127.0.0.1:9/hooks", key: "k", secret: "s"))
        }
    }
}
