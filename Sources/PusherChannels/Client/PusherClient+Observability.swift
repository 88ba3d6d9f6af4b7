// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension PusherClient {
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

    /// Whether this client records metrics (a metrics backend was in place when it was created).
    package var recordsMetrics: Bool { self.withEngine { $0.metrics != nil } }
}
