// SPDX-License-Identifier: MIT

import InMemoryTracing
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import NIOHTTP1
import PusherChannelsServer
import PusherTestSupport
import Testing
import Tracing

/// Spans, metrics and logs of each call, and that none of them holds the secret or event data.
@Suite("Server observability")
struct ObservabilityTests {
    static let eventData = #"{"card":"4111-DATA-MARKER"}"#

    static func server(
        transport: RecordingTransport, metrics: TestMetrics? = nil, logger: Logger? = nil
    ) throws -> PusherServer {
        PusherServer(
            configuration: try TestApp.configuration(), transport: transport, logger: logger,
            timestamp: { 1_700_000_000 }, metricsFactory: metrics)
    }

    @Test("each call has its span, and its trace context is in the request's headers")
    func spans() async throws {
        let tracer = InMemoryTracer()
        let transport = RecordingTransport()
        try await withTracer(tracer) {
            let server = try Self.server(transport: transport)
            try await server.trigger(channels: ["a", "b"], event: "e", data: Self.eventData)
            try await server.triggerBatch([BatchEvent(channel: "a", event: "e", data: Self.eventData)])
            try await server.sendToUser("alice", event: "e", data: Self.eventData)
            try await server.terminateConnections(ofUser: "alice")
            await transport.answer(.init(status: 200, body: #"{"channels":{}}"#))
            _ = try await server.channels()
            await transport.answer(.init(status: 200, body: #"{"occupied":false}"#))
            _ = try await server.channel("a")
            await transport.answer(.init(status: 200, body: #"{"users":[]}"#))
            _ = try await server.users(inPresenceChannel: "presence-a")
        }
        let names = tracer.finishedSpans.map(\.operationName)
        #expect(
            names == [
                "pusher.trigger", "pusher.batch_trigger", "pusher.send_to_user", "pusher.terminate_connections",
                "pusher.channels", "pusher.channel", "pusher.users",
            ])
        #expect(tracer.activeSpans.isEmpty)
        let headers = await transport.headers
        try #require(headers.count == 7)
        for (span, header) in zip(tracer.finishedSpans, headers) {
            #expect(span.kind == .client)
            #expect(header[InMemoryTracer.spanIDKey] == [span.spanID])
            #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        }
        #expect(tracer.finishedSpans[0].attributes["pusher.channel_count"]?.toSpanAttribute() == 2)
        let everything = tracer.finishedSpans.map { "\($0.operationName) \($0.attributes) \($0.events)" }.joined()
        #expect(!everything.contains("DATA-MARKER"))
        #expect(!everything.contains(TestApp.secret))
    }

    @Test("a failed call's span has an error status and the error, without data or secret")
    func failedSpan() async throws {
        let tracer = InMemoryTracer()
        let transport = RecordingTransport(response: .init(status: 401, body: #"{"error":"bad signature"}"#))
        await withTracer(tracer) {
            let server = try? Self.server(transport: transport)
            _ = try? await server?.trigger(channel: "c", event: "e", data: Self.eventData)
            _ = try? await server?.trigger(channel: "bad name", event: "e", data: Self.eventData)
        }
        try #require(tracer.finishedSpans.count == 2)
        for span in tracer.finishedSpans {
            #expect(span.status?.code == .error)
            #expect(span.errors.count == 1)
            let text = "\(span.errors) \(span.attributes) \(String(describing: span.status))"
            #expect(!text.contains("DATA-MARKER"))
            #expect(!text.contains(TestApp.secret))
        }
        #expect(tracer.finishedSpans[0].status?.message == "httpStatus")
        #expect(tracer.finishedSpans[1].status?.message == "invalidArgument")
    }

    @Test("a counter and a timer per call and status; refused calls are not counted")
    func metrics() async throws {
        let metrics = TestMetrics()
        let transport = RecordingTransport()
        let server = try Self.server(transport: transport, metrics: metrics)
        try await server.trigger(channel: "a", event: "e", data: Self.eventData)
        try await server.trigger(channel: "a", event: "e", data: Self.eventData)
        await transport.answer(.init(status: 413, body: "{}"))
        _ = try? await server.triggerBatch([BatchEvent(channel: "a", event: "e", data: Self.eventData)])
        _ = try? await server.trigger(channel: "bad name", event: "e", data: "{}")

        let ok = try metrics.expectCounter("pusher_server_requests_total", [("call", "trigger"), ("status", "200")])
        #expect(ok.totalValue == 2)
        let refused = try metrics.expectCounter(
            "pusher_server_requests_total", [("call", "batch_trigger"), ("status", "413")])
        #expect(refused.totalValue == 1)
        let timer = try metrics.expectTimer("pusher_server_request_duration", [("call", "trigger"), ("status", "200")])
        #expect(timer.values.count == 2)
        #expect(metrics.counters.count == 2, "the refused argument sent nothing and counted nothing")
    }

    @Test("timeouts and transport failures are counted by kind")
    func failureMetrics() async throws {
        let metrics = TestMetrics()
        let transport = FailingTransport(error: PusherServerError(.timeout, "no answer"))
        let server = PusherServer(
            configuration: try TestApp.configuration(), transport: transport, metricsFactory: metrics)
        _ = try? await server.channels()
        let counter = try metrics.expectCounter(
            "pusher_server_requests_total", [("call", "channels"), ("status", "timeout")])
        #expect(counter.totalValue == 1)
    }

    @Test("a given logger hears each call at debug level, without data or secret")
    func logging() async throws {
        let recorded = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "test") { _ in
            ClosureLogHandler { event, _ in
                recorded.withLockedValue { $0.append("\(event.level) \(event.message) \(event.metadata ?? [:])") }
            }
        }
        logger.logLevel = .trace
        let transport = RecordingTransport()
        let server = try Self.server(transport: transport, logger: logger)
        try await server.trigger(channel: "private-encrypted-x", event: "e", data: Self.eventData)
        await transport.answer(.init(status: 500, body: "{}"))
        _ = try? await server.trigger(channel: "c", event: "e", data: Self.eventData)
        let lines = recorded.withLockedValue { $0 }
        #expect(lines.count == 2)
        #expect(lines.first?.contains("trigger") == true)
        #expect(lines.last?.contains("500") == true)
        for line in lines {
            #expect(!line.contains("DATA-MARKER"))
            #expect(!line.contains(TestApp.secret))
        }
    }

    @Test("error descriptions hold neither the secret nor the data")
    func errorDescriptions() async throws {
        let transport = RecordingTransport(response: .init(status: 401, body: "{}"))
        let server = try Self.server(transport: transport)
        var errors = [PusherServerError]()
        func record(_ call: () async throws -> Void) async {
            do { try await call() } catch let error as PusherServerError { errors.append(error) } catch {}
        }
        await record { try await server.trigger(channel: "c", event: "e", data: Self.eventData) }
        await record {
            try await server.trigger(channel: "c", event: "e", data: String(repeating: "DATA-MARKER", count: 1_000))
        }
        await record { try await server.triggerBatch([BatchEvent(channel: "c d", event: "e", data: Self.eventData)]) }
        await record {
            try await server.trigger(channel: "private-encrypted-x", event: "e", data: Self.eventData, socketID: "x")
        }
        #expect(errors.map(\.code) == [.httpStatus, .limitExceeded, .invalidArgument, .invalidArgument])
        for error in errors {
            #expect(!error.description.contains("DATA-MARKER"))
            #expect(!error.description.contains(TestApp.secret))
            #expect(!String(reflecting: error).contains(TestApp.secret))
        }
    }
}

/// A transport that always fails with one error.
struct FailingTransport: PusherHTTPTransport {
    let error: PusherServerError

    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse {
        throw self.error
    }
}
