// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import MetricsTestKit
import PusherChannelsServer
import Testing

/// The default client's safety: no redirect followed, a refused connection reported at once, and a
/// cancelled call reported as cancelled (not retryable, not a transport failure in metrics).
@Suite("Safe HTTP by default", .timeLimit(.minutes(1)))
struct SafeHTTPTests {
    /// The error of a trigger through `server`.
    static func triggerError(_ server: PusherServer) async -> PusherServerError? {
        do throws(PusherServerError) {
            try await server.trigger(channel: "orders", event: "created", data: #"{"id":1}"#)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a redirect to another port is an httpStatus error and nothing is sent there",
        arguments: [301, 302, 303, 307, 308])
    func redirectNotFollowed(status: Int) async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in (200, "{}") }) { elsewhere in
            let location = "http://127.0.0.1:\(elsewhere.port)/apps/1234/events"
            try await LoopbackHTTPServer.withServer(respond: { _ in (status, "") }, headers: [("Location", location)]) {
                origin in
                let error = try #require(await Self.triggerError(try HTTPErrorTests.server(port: origin.port)))
                #expect(error.code == .httpStatus)
                #expect(error.httpStatus == status)
                #expect(error.message.contains("redirect"), "\(error)")
                #expect(!error.isRetryable)
                #expect(origin.requests.count == 1)
                #expect(elsewhere.requests.isEmpty, "the signed trigger was sent on to the redirect's target")
            }
        }
    }

    @Test("an injected client that follows redirects: the call still fails with the redirect's status")
    func injectedClientFollowingRedirects() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false)))
        defer { _ = client.shutdown() }
        try await LoopbackHTTPServer.withServer(respond: { _ in (200, "{}") }) { elsewhere in
            let location = "http://127.0.0.1:\(elsewhere.port)/apps/1234/events"
            try await LoopbackHTTPServer.withServer(respond: { _ in (307, "") }, headers: [("Location", location)]) {
                origin in
                let configuration = try HTTPErrorTests.server(port: origin.port).configuration
                let error = try #require(
                    await Self.triggerError(PusherServer(configuration: configuration, httpClient: client)))
                #expect(error.code == .httpStatus)
                #expect(error.httpStatus == 307)
                #expect(error.message.contains("redirectConfiguration: .disallow"))
            }
        }
    }

    @Test("a refused connection fails at once, long before the timeout")
    func refusedConnectionAtOnce() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let server = try HTTPErrorTests.server(port: port, timeout: .seconds(20))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await Self.triggerError(server)
        let elapsed = clock.now - start
        #expect(error?.code == .transport)
        #expect(error?.isRetryable == true)
        // Retrying the connection would take the whole 20 s and end in a timeout.
        #expect(elapsed < HTTPErrorTests.promptly)
    }

    @Test("a cancelled call is cancelled: not retryable, counted as cancelled and not as a transport failure")
    func cancellation() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in nil }) { loopback in
            let metrics = TestMetrics()
            let configuration = try HTTPErrorTests.server(port: loopback.port, timeout: .seconds(20)).configuration
            let server = PusherServer(
                configuration: configuration,
                transport: AsyncHTTPClientTransport(
                    client: AsyncHTTPClientTransport.sharedClient, baseURL: "http://127.0.0.1:\(loopback.port)"),
                metricsFactory: metrics)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await withTaskGroup(of: PusherServerError?.self) { group in
                group.addTask { await Self.triggerError(server) }
                // The request is on the wire when the loopback server has it (bounded: 10 s).
                for _ in 0..<1_000 where loopback.requests.isEmpty {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                group.cancelAll()
                return await group.next() ?? nil
            }
            #expect(loopback.requests.count == 1)
            #expect(error?.code == .cancelled)
            #expect(error?.isRetryable == false)
            #expect(clock.now - start < .seconds(15), "the call ended at its timeout, not at its cancellation")
            let cancelled = try metrics.expectCounter(
                "pusher_server_requests_total", [("call", "trigger"), ("status", "cancelled")])
            #expect(cancelled.totalValue == 1)
            #expect(metrics.counters.count == 1, "no transport failure counted")
        }
    }

    @Test("a call made in a cancelled task sends nothing and counts nothing")
    func cancelledBeforeSending() async throws {
        let metrics = TestMetrics()
        let transport = RecordingTransport()
        let server = PusherServer(
            configuration: try TestApp.configuration(), transport: transport, metricsFactory: metrics)
        let error = await withTaskGroup(of: PusherServerError?.self) { group in
            group.cancelAll()
            group.addTask { await Self.triggerError(server) }
            return await group.next() ?? nil
        }
        #expect(error?.code == .cancelled)
        #expect(await transport.requests.isEmpty)
        #expect(metrics.counters.isEmpty)
    }
}
