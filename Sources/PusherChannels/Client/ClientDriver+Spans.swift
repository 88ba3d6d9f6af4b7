// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension ClientDriver {
    // MARK: Tracing

    /// Starts the span of the connection attempt of `generation` to `endpoint` (the one chosen when
    /// the attempt was opened, not the latest), in the connection's own task (inside `run()`, so
    /// under the tracer and context the client runs with); it ends when the attempt connects or fails.
    mutating func startConnectionSpan(generation: Generation, endpoint: PusherEndpoint) {
        let span = startSpan("pusher.connect", ofKind: .client)
        guard span.isRecording else {
            span.end()
            return
        }
        self.attachConnectionSpan(span, generation: generation, endpoint: endpoint)
    }

    private mutating func attachConnectionSpan(_ span: any Span, generation: Generation, endpoint: PusherEndpoint) {
        span.attributes["server.address"] = endpoint.host
        if let port = endpoint.port { span.attributes["server.port"] = port }
        span.attributes["pusher.generation"] = generation.rawValue
        // The attempt may already be given up (disconnect(), the run ending) before its task ran.
        guard self.engine.activeGeneration == generation else {
            span.attributes["pusher.cancelled"] = true
            span.end()
            return
        }
        if case .connecting(let attempt) = self.engine.state { span.attributes["pusher.attempt"] = attempt }
        self.connectionSpans[generation] = span
    }

    /// Ends the open connection spans as `state` says: successful when connected, failed with the
    /// cause when reconnecting or failed; `nil` ends them as the run ends.
    mutating func endConnectionSpans(state: ConnectionState?) {
        guard !self.connectionSpans.isEmpty else { return }
        let error: PusherError?
        switch state {
        case .connected(let socketID):
            for span in self.connectionSpans.values { span.attributes["pusher.socket_id"] = socketID }
            error = nil
        case .reconnecting(_, _, let cause): error = cause
        case .failed(let cause): error = cause
        case .disconnected, nil:
            // Given up on request (or the run ended) before the attempt connected.
            for span in self.connectionSpans.values { span.attributes["pusher.cancelled"] = true }
            error = nil
        case .initialized, .connecting: return
        }
        for span in self.connectionSpans.values {
            if let error { PusherClient.markFailed(span, with: error) }
            span.end()
        }
        self.connectionSpans = [:]
    }
}
