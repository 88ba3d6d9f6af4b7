// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

extension PusherClient {
    /// Tells the logger, the metrics backend and the tracer what one locked section gathered, with
    /// the lock released: their handlers may call back into the client. Then, in one more locked
    /// section, instruments the metrics backend had to make are handed to the driver's bookkeeping
    /// and the telling is counted as done (see ``observationsTold()``).
    nonisolated func tell(_ observations: Observations) {
        let made = self.metricsRecorder?.record(observations)
        defer {
            self.withEngine { driver in
                driver.tellsUnderway -= 1
                if let made, !made.isEmpty { driver.metrics?.keep(made) }
            }
        }
        for observation in observations.list {
            switch observation {
            case .log(let level, let message, let metadata):
                self.logger?.log(level: level, message, metadata: metadata)
            case .endSpans(let spans, let error, let socketID, let cancelled):
                for span in spans {
                    if let socketID { span.attributes["pusher.socket_id"] = socketID }
                    if cancelled { span.attributes["pusher.cancelled"] = true }
                    if let error { Self.markFailed(span, with: error) }
                    span.end()
                }
            }
        }
    }

    /// Starts the span of the connection attempt of `generation` to `endpoint` (the one chosen when
    /// the attempt was opened, not the latest), in the connection's own task (inside `run()`, so
    /// under the tracer and context the client runs with), outside the lock; the driver keeps it
    /// until the attempt connects or fails.
    nonisolated func startConnectionSpan(generation: Generation, endpoint: PusherEndpoint) {
        let span = startSpan("pusher.connect", ofKind: .client)
        guard span.isRecording else { return span.end() }
        span.attributes["server.address"] = endpoint.host
        if let port = endpoint.port { span.attributes["server.port"] = port }
        span.attributes["pusher.generation"] = generation.rawValue
        let (kept, attempt) = self.withEngine { $0.keepConnectionSpan(span, generation: generation) }
        if let attempt { span.attributes["pusher.attempt"] = attempt }
        guard kept else {
            span.attributes["pusher.cancelled"] = true
            return span.end()
        }
    }

    /// Marks `span` failed with `error`'s code, channel, close code and HTTP status: not its message
    /// or cause, which can quote an auth URL, a response body or an authorizer's own error text.
    nonisolated static func markFailed(_ span: any Span, with error: PusherError) {
        var recorded = PusherError(error.code, "\(error.code)", channel: error.channel)
        recorded.closeCode = error.closeCode
        recorded.httpStatus = error.httpStatus
        span.recordError(recorded)
        span.setStatus(SpanStatus(code: .error, message: "\(error.code)"))
        if let status = error.httpStatus { span.attributes["http.response.status_code"] = status }
    }

    /// Returns once everything gathered so far has been told to the logger, the metrics backend and
    /// the tracer. Lines are told just after the lock is released, so a test that saw a change
    /// (an event delivered, a state) waits here before it reads what was logged or recorded.
    package func observationsTold() async {
        while self.withEngine({ $0.tellsUnderway > 0 }) { await Task.yield() }
    }

    /// Whether this client records metrics (a metrics backend was in place when it was created).
    package var recordsMetrics: Bool { self.withEngine { $0.metrics != nil } }
}
