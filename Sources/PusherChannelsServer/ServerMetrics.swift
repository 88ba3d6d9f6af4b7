// SPDX-License-Identifier: MIT

import CoreMetrics

/// The server side's swift-metrics instruments: `pusher_server_requests_total` and
/// `pusher_server_request_duration`, both with the dimensions `call` and `status` (the HTTP status,
/// or `timeout`, `transport` or `cancelled` when no answer came: a cancelled call is not a transport
/// failure). Only requests that were sent are counted.
enum ServerMetrics {
    static func record(call: ServerCall, status: String, nanoseconds: Int64, factory: (any MetricsFactory)?) {
        let factory = factory ?? MetricsSystem.factory
        if factory is NOOPMetricsHandler { return }
        let dimensions = [("call", call.rawValue), ("status", status)]
        Counter(label: "pusher_server_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "pusher_server_request_duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(nanoseconds)
    }
}
