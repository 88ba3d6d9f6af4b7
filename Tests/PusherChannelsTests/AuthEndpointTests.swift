// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTP auth endpoint", .timeLimit(.minutes(1)))
struct AuthEndpointTests {
    static let secret = "endpoint-secret"

    @Test("POSTs form-encoded socket_id and channel_name with extra parameters, static and per-request headers")
    func requestFormat() async throws {
        let tokens = NIOLockedValueBox(0)
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(
                server.authEndpoint,
                headers: ["X-Static": "static", "Authorization": "overridden"],
                parameters: ["extra": "x y&z=1"],
                headersProvider: {
                    let token = tokens.withLockedValue { value -> Int in
                        value += 1
                        return value
                    }
                    return ["Authorization": "Bearer token-\(token)"]
                }
            )
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                let channel = "private-orders;eu=1@a,b"
                var signals = client.subscriptionEvents(on: channel).makeAsyncIterator()
                async let events = collect(client.events(on: channel), count: 2)
                await server.waitForSubscribers(of: channel)
                await server.trigger(channel: channel, event: "created", data: "{}")
                let snapshot = await server.snapshot
                let request = try #require(snapshot.authRequests.first)
                #expect(request.method == "POST")
                #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
                #expect(request.headers["x-static"] == "static")
                #expect(request.headers["authorization"] == "Bearer token-1")
                #expect(
                    request.fields == [
                        "socket_id": snapshot.connections[0].socketID, "channel_name": channel, "extra": "x y&z=1",
                    ])
                #expect(request.body.contains("channel_name=private-orders%3Beu%3D1%40a%2Cb"))
                #expect(request.body.contains("extra=x%20y%26z%3D1"))
                // A reconnect authorizes again with a fresh header value.
                let first = await signals.next()
                #expect(first == .succeeded(channel: channel, isResubscription: false))
                await server.close(code: 4200, reason: "reconnect")
                let again = await signals.next()
                #expect(
                    again == .succeeded(channel: channel, isResubscription: true, missedWindow: again?.missedWindow))
                #expect(await server.snapshot.authRequests.last?.headers["authorization"] == "Bearer token-2")
                await server.trigger(channel: channel, event: "updated", data: "{}")
                let received = try await events
                #expect(received.map(\.name) == ["created", "updated"])
            }
        }
    }

    @Test(
        "HTTP errors, bad JSON and a missing auth fail the subscription with status and body; a retry works",
        arguments: [
            (401, #"{"error":"unauthorized"}"#),
            (500, "internal error"),
            (200, "not json"),
            (200, #"{"channel_data":"x"}"#),
        ]
    )
    func failures(status: Int, body: String) async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(server.authEndpoint)
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                await server.setAuthEndpoint(.respond(status: status, body: body))
                var failure: PusherError?
                do {
                    for try await _ in client.events(on: "private-chat") {}
                } catch {
                    failure = error as? PusherError
                }
                #expect(failure?.code == .authorizationFailed)
                #expect(failure?.httpStatus == status)
                #expect(failure?.responseBody == body)
                #expect(failure?.channel == "private-chat")
                await server.setAuthEndpoint(.sign)
                async let retry = collect(client.events(on: "private-chat"), count: 1)
                await server.waitForSubscribers(of: "private-chat")
                await server.trigger(channel: "private-chat", event: "ok", data: "")
                let retried = try await retry
                #expect(retried.map(\.name) == ["ok"])
            }
        }
    }

    @Test("an unreachable auth endpoint is an authorizationFailed error, not a hang")
    func unreachable() async throws {
        try await FakePusherServer.withRunning { server in
            var options = server.clientConfiguration()
            options.authorizer = .endpoint(URL(string: "http://127.0.0.1:1/pusher/auth")!)  // a valid literal
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            let start = ContinuousClock.now
            try await withRunningClient(client) { client in
                let error = await #expect(throws: PusherError.self) {
                    for try await _ in client.events(on: "private-chat") {}
                }
                #expect(error?.code == .authorizationFailed)
                // A refused connection fails as refused, not retried until the 10 s connect timeout
                // (what the error would then say). Wall-clock bounds failed on a busy machine (8.7 s
                // and 9.4 s with other builds running), so the time only catches a hang.
                let message = error?.message.lowercased() ?? ""
                #expect(!message.contains("timeout") && !message.contains("deadline"), "\(message)")
            }
            #expect(ContinuousClock.now - start < .seconds(30))
        }
    }
}
