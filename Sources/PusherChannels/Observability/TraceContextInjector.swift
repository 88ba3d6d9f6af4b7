// SPDX-License-Identifier: MIT

import NIOHTTP1
import Tracing

/// Writes the current trace context into an auth request's headers (W3C `traceparent` with
/// swift-otel, for example), so that the auth endpoint's own spans join the client's trace.
struct TraceContextInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: key, value: value)
    }

    /// Adds the headers of the active instrument (the bootstrapped one, or one bound with
    /// `withTracer(_:_:)`) for the current `ServiceContext`; without a context or an instrument it
    /// changes nothing.
    static func inject(into headers: inout HTTPHeaders) {
        guard let context = ServiceContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &headers, using: TraceContextInjector())
    }
}
