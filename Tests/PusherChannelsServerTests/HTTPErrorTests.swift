// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import InMemoryTracing
import NIOHTTP1
import PusherChannelsServer
import PusherCrypto
import Testing
import Tracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Through AsyncHTTPClient (the shared client, as users get it) to a loopback server: what goes on
/// the wire, and how statuses, bad bodies, silence and refused connections become errors.
@Suite("HTTP API over AsyncHTTPClient", .timeLimit(.minutes(1)))
struct HTTPErrorTests {
    static func server(port: Int, timeout: Duration = .seconds(5)) throws -> PusherServer {
        PusherServer(
            configuration: try PusherServerConfiguration(
                appID: TestApp.appID, key: TestApp.key, secret: TestApp.secret, host: "127.0.0.1", port: port,
                useTLS: false, timeout: timeout, encryptionMasterKey: try .init(base64: TestApp.masterKeyBase64)))
    }

    /// The error of a trigger against a server that answers `status` with `body`.
    static func triggerError(status: Int, body: String) async throws -> PusherServerError? {
        try await LoopbackHTTPServer.withServer(respond: { _ in (status, body) }) { loopback in
            let server = try Self.server(port: loopback.port)
            do throws(PusherServerError) {
                try await server.trigger(channel: "c", event: "e", data: "{}")
                return PusherServerError?.none
            } catch {
                return error
            }
        }
    }

    @Test("a trigger on the wire: signed query, percent-encoded values, JSON body whose MD5 is body_md5")
    func triggerOnTheWire() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in (200, #"{"channels":{"presence-a":{"user_count":3}}}"#)
        }) {
            loopback in
            let result = try await Self.server(port: loopback.port).trigger(
                channels: ["presence-a", "b"], event: "e", data: #"{"x":"ü"}"#, socketID: "1.2",
                info: [.userCount, .subscriptionCount])
            #expect(result.channels["presence-a"]?.userCount == 3)
            #expect(result.responseBody == #"{"channels":{"presence-a":{"user_count":3}}}"#)
            try #require(loopback.requests.count == 1)
            let request = loopback.requests[0]
            #expect(request.method == .POST)
            #expect(request.uri.hasPrefix("/apps/1234/events?auth_key=278d425bdf160c739803&auth_signature="))
            #expect(request.headers["Content-Type"] == ["application/json"])
            #expect(request.rawQueryValue("body_md5") == MD5Digest.hex(request.body))
            #expect(request.rawQueryValue("auth_version") == "1.0")
            let body = String(decoding: request.body, as: UTF8.self)
            #expect(body.contains(#""info":"user_count,subscription_count""#))
            #expect(body.contains(#""data":"{\"x\":\"ü\"}""#))
        }
    }

    @Test("a query's values are percent-encoded in the URL and signed unescaped")
    func queryOnTheWire() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in
            (200, #"{"occupied":true,"user_count":2,"subscription_count":5}"#)
        }) {
            loopback in
            let info = try await Self.server(port: loopback.port)
                .channel("presence-my-room", info: [.userCount, .subscriptionCount])
            #expect(info.occupied)
            #expect(info.counts == ChannelCounts(subscriptionCount: 5, userCount: 2))
            try #require(loopback.requests.count == 1)
            let request = loopback.requests[0]
            #expect(request.method == .GET)
            #expect(request.uri.hasPrefix("/apps/1234/channels/presence-my-room?"))
            #expect(request.rawQueryValue("info") == "user_count%2Csubscription_count")
            #expect(request.rawQueryValue("body_md5") == "d41d8cd98f00b204e9800998ecf8427e")
        }
    }

    @Test(
        "HTTP statuses become httpStatus errors with the body; 429 and 5xx are retryable",
        arguments: [
            (400, false), (401, false), (403, false), (404, false), (413, false), (429, true), (500, true), (503, true),
        ])
    func statuses(status: Int, retryable: Bool) async throws {
        let body = #"{"error":"answer \#(status)"}"#
        let error = try #require(try await Self.triggerError(status: status, body: body))
        #expect(error.code == .httpStatus)
        #expect(error.httpStatus == status)
        #expect(error.responseBody == body)
        #expect(error.isRetryable == retryable)
    }

    @Test("any 2xx is success", arguments: [200, 202, 204])
    func successStatuses(status: Int) async throws {
        #expect(try await Self.triggerError(status: status, body: "{}") == nil)
    }

    @Test("a 2xx answer to a query whose body is not the expected JSON is undecodableResponse, with the body")
    func undecodable() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in (200, "<html>") }) { loopback in
            var caught: PusherServerError?
            let server = try Self.server(port: loopback.port)
            do throws(PusherServerError) {
                _ = try await server.channel("c")
            } catch {
                caught = error
            }
            let error = try #require(caught)
            #expect(error.code == .undecodableResponse)
            #expect(error.responseBody == "<html>")
            #expect(error.httpStatus == 200)
            #expect(!error.isRetryable)
        }
        try await LoopbackHTTPServer.withServer(respond: { _ in (200, #"{"users":[{"name":"no id"}]}"#) }) { loopback in
            await #expect(throws: PusherServerError.self) {
                try await Self.server(port: loopback.port).users(inPresenceChannel: "presence-a")
            }
        }
    }

    @Test("a server that never answers times out after the configured timeout")
    func timeout() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in nil }) { loopback in
            let clock = ContinuousClock()
            let start = clock.now
            var caught: PusherServerError?
            // 1 s, not less: on a loaded machine connecting and sending took over 150 ms, so a
            // shorter timeout fired before the request arrived and the last check failed.
            let server = try Self.server(port: loopback.port, timeout: .seconds(1))
            do throws(PusherServerError) {
                try await server.trigger(channel: "c", event: "e", data: "{}")
            } catch {
                caught = error
            }
            let elapsed = clock.now - start
            #expect(caught?.code == .timeout)
            #expect(caught?.isRetryable == true)
            #expect(elapsed >= .milliseconds(990))
            #expect(elapsed < .seconds(1) + Self.promptly)
            #expect(loopback.requests.count == 1, "the request arrived; only the answer was missing")
        }
    }

    /// How soon a timed-out call must return: 8 s, or 30 s under ThreadSanitizer (scripts/run-tests
    /// sets TSAN_OPTIONS), whose slowdown alone took one bounded call to 7 s on a loaded machine.
    /// An unbounded read never returns (the loopback server stalls for good), so any bound tells
    /// them apart; a whole suite running in parallel on a loaded 2-core machine took a 100 ms
    /// timeout to 3.1-5.1 s.
    static let promptly: Duration = getenv("TSAN_OPTIONS") == nil ? .seconds(8) : .seconds(30)

    @Test("a body that stops halfway times out too")
    func stalledBody() async throws {
        try await LoopbackHTTPServer.withServer(respond: { _ in (-1, #"{"chan"#) }) { loopback in
            let clock = ContinuousClock()
            let start = clock.now
            var caught: PusherServerError?
            let server = try Self.server(port: loopback.port, timeout: .milliseconds(100))
            do throws(PusherServerError) {
                try await server.trigger(channel: "c", event: "e", data: "{}")
            } catch {
                caught = error
            }
            #expect(caught?.code == .timeout)
            #expect(clock.now - start < Self.promptly)
        }
    }

    @Test("a refused connection is a retryable transport error")
    func refusedConnection() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        var caught: PusherServerError?
        let server = try Self.server(port: port, timeout: .milliseconds(500))
        do {
            try await server.trigger(channel: "c", event: "e", data: "{}")
        } catch {
            caught = error
        }
        #expect(caught?.code == .transport)
        #expect(caught?.isRetryable == true)
        #expect(caught.map { !$0.description.contains(TestApp.secret) } == true)
    }

    @Test("the trace context goes into the request's headers")
    func traceContextInHeaders() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await LoopbackHTTPServer.withServer(respond: { _ in (200, #"{"channels":{}}"#) }) { loopback in
                _ = try await Self.server(port: loopback.port).channels()
                let spans = tracer.finishedSpans.filter { $0.operationName == "pusher.channels" }
                try #require(spans.count == 1)
                try #require(loopback.requests.count == 1)
                #expect(loopback.requests[0].headers[InMemoryTracer.traceIDKey] == [spans[0].traceID])
                #expect(loopback.requests[0].headers[InMemoryTracer.spanIDKey] == [spans[0].spanID])
            }
        }
    }
}
