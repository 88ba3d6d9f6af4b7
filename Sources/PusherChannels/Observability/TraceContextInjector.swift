// SPDX-License-Identifier: MIT

import Tracing

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// Writes the current trace context into an auth request's headers (W3C `traceparent` with
/// swift-otel, for example), so that the auth endpoint's own spans join the client's trace.
struct TraceContextInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }

    /// Adds the headers of the active instrument (the bootstrapped one, or one bound with
    /// `withTracer(_:_:)`) for the current `ServiceContext`; without a context or an instrument it
    /// changes nothing.
    static func inject(into request: inout URLRequest) {
        guard let context = ServiceContext.current else { return }
        InstrumentationSystem.instrument.inject(context, into: &request, using: TraceContextInjector())
    }
}
