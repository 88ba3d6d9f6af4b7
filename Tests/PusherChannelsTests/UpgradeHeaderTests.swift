// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import Testing

/// `PusherClientConfiguration.headers` and `headersProvider`: what the server sees on the WebSocket
/// upgrade request (over a real loopback socket: the headers are the transport's job).
@Suite("Upgrade headers", .timeLimit(.minutes(1)))
struct UpgradeHeaderTests {
    @Test("the configured headers reach the server on the upgrade request; Host stays the client's")
    func headersReachServer() async throws {
        let options: (inout PusherClientConfiguration) -> Void = {
            $0.headers = ["Origin": "https://app.example", "Authorization": "Bearer static", "Cookie": "session=1"]
        }
        try await withHarness(options: options, loopback: true) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            let connection = try #require(await harness.server.snapshot.connections.first)
            #expect(connection.requestHeaders["origin"] == "https://app.example")
            #expect(connection.requestHeaders["authorization"] == "Bearer static")
            #expect(connection.requestHeaders["cookie"] == "session=1")
            #expect(connection.requestHeaders["host"] == "127.0.0.1:\(harness.server.port)")
        }
    }

    @Test("the provider is called before every connect: a reconnect carries a fresh token, over the static one")
    func providerCalledPerAttempt() async throws {
        let calls = NIOLockedValueBox(0)
        let options: (inout PusherClientConfiguration) -> Void = {
            $0.headers = ["Authorization": "Bearer static", "Origin": "https://app.example"]
            $0.headersProvider = {
                let call = calls.withLockedValue {
                    $0 += 1
                    return $0
                }
                return ["authorization": "Bearer token-\(call)"]
            }
        }
        try await withHarness(options: options, loopback: true) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.drop()
            _ = await states.collect { $0.isReconnecting }
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .seconds(1))
            _ = await states.connectedSocketID()
            let connections = await harness.server.snapshot.connections
            #expect(connections.map { $0.requestHeaders["authorization"] } == ["Bearer token-1", "Bearer token-2"])
            #expect(connections.allSatisfy { $0.requestHeaders["origin"] == "https://app.example" })
            #expect(calls.withLockedValue { $0 } == 2)
        }
    }

    @Test(
        "refused headers fail connect() with invalidConfiguration, without a connection",
        arguments: [
            ["Host": "evil.example"], ["upgrade": "h2c"], ["CONNECTION": "close"], ["Sec-WebSocket-Key": "x"],
            ["sec-websocket-protocol": "chat"], ["Content-Length": "5"], ["bad name": "x"], ["": "x"],
            ["X-Token": "a\r\nInjected: 1"], ["X-Token": "a\0b"], ["X-Token": "1", "x-token": "2"],
        ]
    )
    func refusedHeaders(headers: [String: String]) async throws {
        try await withHarness(options: { $0.headers = headers }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let failed = await states.collect { $0.failure != nil }
            let error = try #require(failed.last?.failure)
            #expect(error.code == .invalidConfiguration)
            #expect(!error.message.contains("evil.example") && !error.message.contains("Injected"))
            #expect(await harness.server.snapshot.connections.isEmpty)
        }
    }

    @Test("a provider that throws, or returns a refused header, fails that attempt; the client backs off and retries")
    func providerFailureBacksOff() async throws {
        let calls = NIOLockedValueBox(0)
        struct TokenServiceDown: Error {}
        let options: (inout PusherClientConfiguration) -> Void = {
            $0.headersProvider = {
                let call = calls.withLockedValue {
                    $0 += 1
                    return $0
                }
                switch call {
                case 1: throw TokenServiceDown()
                case 2: return ["Sec-WebSocket-Protocol": "forged"]
                default: return ["Authorization": "Bearer token-\(call)"]
                }
            }
        }
        try await withHarness(options: options, loopback: true) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            guard case .reconnecting(1, .seconds(1), let first)? = await states.collect(until: \.isReconnecting).last
            else {
                Issue.record("the throwing provider did not fail the attempt")
                return
            }
            #expect(first.code == .transportFailed)
            #expect(first.cause is TokenServiceDown)
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .seconds(1))
            guard case .reconnecting(2, .seconds(2), let second)? = await states.collect(until: \.isReconnecting).last
            else {
                Issue.record("the refused header did not fail the attempt")
                return
            }
            #expect(second.code == .invalidConfiguration)
            await harness.clock.waitForDeadlines([.seconds(3)])
            harness.clock.advance(by: .seconds(2))
            _ = await states.connectedSocketID()
            let connections = await harness.server.snapshot.connections
            #expect(connections.map { $0.requestHeaders["authorization"] } == ["Bearer token-3"])
        }
    }

    @Test("a provider that does not return fails the attempt at the handshake timeout")
    func hangingProviderTimesOut() async throws {
        // A stream nobody finishes: the provider waits on it until the attempt is cancelled.
        let (never, keptOpen) = AsyncStream.makeStream(of: Never.self)
        let options: (inout PusherClientConfiguration) -> Void = {
            $0.headersProvider = {
                for await _ in never {}
                withExtendedLifetime(keptOpen) {}
                throw CancellationError()
            }
        }
        try await withHarness(options: options, loopback: true) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.collect { $0 == .connecting(attempt: 0) }
            await harness.clock.waitForDeadlines([.seconds(10)])
            harness.clock.advance(by: .seconds(10))
            guard case .reconnecting(1, _, let cause)? = await states.collect(until: \.isReconnecting).last else {
                Issue.record("the hanging provider did not time out")
                return
            }
            #expect(cause.code == .handshakeTimeout)
            #expect(await harness.server.snapshot.connections.isEmpty)
        }
    }
}
