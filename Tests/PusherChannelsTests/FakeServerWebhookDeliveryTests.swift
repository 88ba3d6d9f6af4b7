// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: webhooks are HTTP requests to receivers on real sockets.
@Suite("FakePusherServer's webhook delivery: no redirects, a queue per target, bounded", .timeLimit(.minutes(1)))
struct FakeServerWebhookDeliveryTests {
    static let secret = "delivery-secret"

    static var path: String { "/app/fake-app-key?protocol=7" }

    /// Subscribes a raw WebSocket to public channels `c-0` … (each sends `channel_occupied`), waits
    /// for every subscription, then runs `body` with the connection still open.
    static func occupy(
        _ count: Int, on server: FakePusherServer, _ body: () async throws -> Void
    ) async throws {
        try await RawWebSocket.withConnection(port: server.port, path: Self.path) { socket in
            _ = try await socket.next(event: "pusher:connection_established")
            for index in 0..<count {
                try await socket.send(#"{"event":"pusher:subscribe","data":{"channel":"c-\#(index)"}}"#)
                _ = try await socket.next(event: "pusher_internal:subscription_succeeded")
            }
            try await body()
        }
    }

    @Test("a receiver answering 307 to another URL: the delivery failed, nothing is POSTed there")
    func redirectNotFollowed() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: 200) }) { elsewhere in
            try await LoopbackHTTPServer.withRunning(reply: { _ in
                .respond(status: 307, headers: [("Location", elsewhere.url + "/stolen")])
            }) { redirecting in
                let target = FakePusherServer.WebhookTarget(url: redirecting.url + "/hooks")
                try await FakePusherServer.withRunning(
                    configuration: .init(appSecret: Self.secret, webhooks: target)
                ) { server in
                    try await Self.occupy(1, on: server) {
                        await server.waitUntil { $0.webhooksDelivered + $0.webhooksFailed >= 1 }
                    }
                    #expect(await server.snapshot.webhooksFailed == 1)
                    #expect(await server.snapshot.webhooksDelivered == 0)
                    #expect(redirecting.requests.count == 1)
                    #expect(elsewhere.requests.isEmpty, "the signed webhook was POSTed where the redirect pointed")
                }
            }
        }
    }

    @Test("a receiver that never answers delays only its own webhooks: another target gets all of them")
    func queuePerTarget() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .hang }) { dead in
            try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: 204) }) { live in
                var configuration = FakePusherServer.Configuration(
                    appSecret: Self.secret, webhooks: .init(url: dead.url + "/hooks"))
                configuration.additionalWebhooks = [.init(url: live.url + "/hooks")]
                try await FakePusherServer.withRunning(configuration: configuration) { server in
                    try await Self.occupy(3, on: server) {
                        await live.waitUntil { requests, _ in requests.count >= 3 }
                    }
                    // With one queue for both, the live receiver's third webhook would have come only
                    // after the dead one's first two had timed out (5 s each) and its third was sent.
                    #expect(dead.requests.count == 1, "the live target waited for the dead one")
                    await server.waitUntil { $0.webhooksDelivered >= 3 }
                }
            }
        }
    }

    @Test("a 2xx answer with a body of 2 MiB counts as delivered")
    func largeAnswerDelivered() async throws {
        let answer = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
        try await LoopbackHTTPServer.withRunning(reply: { _ in .respond(status: 200, body: answer) }) { receiver in
            try await FakePusherServer.withRunning(
                configuration: .init(appSecret: Self.secret, webhooks: .init(url: receiver.url + "/hooks"))
            ) { server in
                try await Self.occupy(1, on: server) {
                    await server.waitUntil { $0.webhooksDelivered + $0.webhooksFailed >= 1 }
                }
                #expect(await server.snapshot.webhooksDelivered == 1)
                #expect(await server.snapshot.webhooksFailed == 0)
            }
        }
    }

    @Test("webhooks over Limits.webhookBytes waiting for a receiver are dropped and counted as failed")
    func byteBudget() async throws {
        try await LoopbackHTTPServer.withRunning(reply: { _ in .hang }) { dead in
            var configuration = FakePusherServer.Configuration(
                appSecret: Self.secret, webhooks: .init(url: dead.url + "/hooks"))
            // About three `channel_occupied` webhooks (each under 100 bytes).
            configuration.limits.webhookBytes = 300
            try await FakePusherServer.withRunning(configuration: configuration) { server in
                try await Self.occupy(10, on: server) {
                    // Queued as each subscription was handled: the counts are final now.
                    let snapshot = await server.snapshot
                    #expect(snapshot.webhooksFailed >= 6, "\(snapshot.webhooksFailed) of 10 dropped")
                    #expect(snapshot.webhooksFailed <= 8, "\(snapshot.webhooksFailed) of 10 dropped")
                    #expect(snapshot.webhooksDelivered == 0)
                }
            }
        }
    }

    @Test("an additional webhook target that is not http(s) is a configuration error at start")
    func invalidAdditionalTarget() async throws {
        var configuration = FakePusherServer.Configuration(appSecret: Self.secret)
        configuration.additionalWebhooks = [.init(url: "ftp://127.0.0.1/hooks")]
        await #expect {
            try await FakePusherServer.withRunning(configuration: configuration) { _ in }
        } throws: { error in
            (error as? PusherError)?.code == .invalidConfiguration
        }
        var unsigned = FakePusherServer.Configuration(appSecret: nil)
        unsigned.additionalWebhooks = [.init(url: "http://127.0.0.1:1/hooks")]
        await #expect {
            try await FakePusherServer.withRunning(configuration: unsigned) { _ in }
        } throws: { error in
            (error as? PusherError)?.code == .invalidConfiguration
        }
    }

    @Test("a webhook target's secret is redacted in description, debugDescription, dump and Mirror")
    func targetRedacted() {
        let target = FakePusherServer.WebhookTarget(url: "http://127.0.0.1:9/hooks", key: "k", secret: "s3cret-value")
        var dumped = ""
        dump(target, to: &dumped)
        let mirrored = Mirror(reflecting: target).children.map { "\($0.label ?? ""): \($0.value)" }.joined()
        for text in [String(describing: target), String(reflecting: target), dumped, mirrored, "\([target])"] {
            #expect(!text.contains("s3cret-value"), "\(text)")
            #expect(text.contains("http://127.0.0.1:9/hooks"), "\(text)")
        }
        #expect(dumped.contains("redacted"))
    }
}
