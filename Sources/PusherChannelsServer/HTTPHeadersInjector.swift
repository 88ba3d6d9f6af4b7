// SPDX-License-Identifier: MIT

import NIOHTTP1
import Tracing

/// Writes a trace context into a request's headers (W3C `traceparent` with swift-otel, for
/// example), so that the server's spans join the caller's trace.
struct HTTPHeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: key, value: value)
    }

    /// Adds the headers of the active instrument for `context`.
    static func inject(_ context: ServiceContext, into headers: inout HTTPHeaders) {
        InstrumentationSystem.instrument.inject(context, into: &headers, using: HTTPHeadersInjector())
    }
}
