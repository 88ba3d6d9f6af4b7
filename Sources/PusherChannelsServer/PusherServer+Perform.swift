// SPDX-License-Identifier: MIT

import Logging
import NIOHTTP1
import PusherCore
import Tracing

extension PusherServer {
    /// Runs one call in its span: builds the request (every check before sending), signs it, sends
    /// it with the trace context in its headers, records the metrics, and decodes a 2xx answer.
    func perform<Value>(
        _ call: ServerCall,
        attributes: [String: Int],
        build: (RequestBuilder, () -> [UInt8]) throws(PusherServerError) -> PusherAPIRequest,
        decode: (PusherHTTPResponse) throws(PusherServerError) -> Value
    ) async throws(PusherServerError) -> Value {
        let span = startSpan(call.spanName, ofKind: .client)
        defer { span.end() }
        for (name, value) in attributes { span.attributes[name] = value }
        do {
            return try await self.send(call, span: span, build: build, decode: decode)
        } catch {
            // The code and status only: not the message or body, which can quote names or the
            // server's answer.
            span.recordError(PusherServerError(error.code, "\(error.code)", httpStatus: error.httpStatus))
            span.setStatus(SpanStatus(code: .error, message: "\(error.code)"))
            throw error
        }
    }

    private func send<Value>(
        _ call: ServerCall,
        span: any Span,
        build: (RequestBuilder, () -> [UInt8]) throws(PusherServerError) -> PusherAPIRequest,
        decode: (PusherHTTPResponse) throws(PusherServerError) -> Value
    ) async throws(PusherServerError) -> Value {
        guard self.configuration.timeout > .zero else {
            throw PusherServerError(.invalidConfiguration, "the timeout must be positive")
        }
        let request = try build(RequestBuilder(configuration: self.configuration), self.nonce)
        let signed = try RequestSigner(key: self.configuration.key, secret: self.configuration.secret)
            .sign(request, timestamp: self.timestamp())
        span.attributes["http.request.method"] = signed.method.rawValue
        span.attributes["server.address"] = self.configuration.host
        var headers = HTTPHeaders()
        HTTPHeadersInjector.inject(span.context, into: &headers)
        // Not sent, so not counted.
        guard !Task.isCancelled else { throw AsyncHTTPClientTransport.cancelled }

        let clock = ContinuousClock()
        let start = clock.now
        let response: PusherHTTPResponse
        do {
            response = try await self.transport.send(signed, headers: headers, timeout: self.configuration.timeout)
        } catch {
            self.finished(call, status: Self.metricStatus(of: error), duration: clock.now - start)
            throw error
        }
        self.finished(call, status: String(response.status), duration: clock.now - start)
        span.attributes["http.response.status_code"] = response.status
        guard (200...299).contains(response.status) else {
            throw PusherServerError(
                .httpStatus, Self.explanation(of: response.status), httpStatus: response.status,
                responseBody: PusherServerError.kept(response.body))
        }
        if response.truncated && !call.acts {
            throw ResponseJSON.undecodable(
                "the answer is larger than \(AsyncHTTPClientTransport.maximumResponseBytes) bytes",
                body: response.body, status: response.status)
        }
        return try decode(response)
    }

    private func finished(_ call: ServerCall, status: String, duration: Duration) {
        let nanoseconds = duration.clampedNanoseconds
        ServerMetrics.record(call: call, status: status, nanoseconds: nanoseconds, factory: self.metricsFactory)
        self.logger?.debug(
            "Pusher HTTP API call",
            metadata: [
                "pusher.call": "\(call.rawValue)", "pusher.status": "\(status)",
                "pusher.duration_ms": "\(nanoseconds / 1_000_000)",
            ])
    }

    /// The `status` dimension of a call that got no usable answer: `timeout`, `cancelled`, the HTTP
    /// status of a redirect an injected client followed, or `transport`.
    static func metricStatus(of error: PusherServerError) -> String {
        switch error.code {
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .httpStatus: error.httpStatus.map(String.init) ?? "transport"
        default: "transport"
        }
    }

    /// What a status outside 2xx usually means.
    static func explanation(of status: Int) -> String {
        switch status {
        case 300...399:
            "the server answered with a redirect (HTTP \(status)), which is not followed: check the configured "
                + "host, port and scheme"
        case 400: "the server refused the request as invalid (HTTP 400)"
        case 401:
            "the server refused the signature (HTTP 401): check the key and secret, and this machine's clock "
                + "(timestamps more than 600 s off are refused)"
        case 403: "the server refused the request (HTTP 403): the app may be disabled or over its limits"
        case 404: "the server has no such app or resource (HTTP 404)"
        case 413: "the server refused the request as too large (HTTP 413)"
        case 429: "the server is rate limiting this app (HTTP 429)"
        case 500...599: "the server failed (HTTP \(status))"
        default: "the server answered HTTP \(status)"
        }
    }
}
