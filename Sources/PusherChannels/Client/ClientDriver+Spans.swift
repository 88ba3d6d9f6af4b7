// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension ClientDriver {
    // MARK: Tracing

    /// Keeps the span of the connection attempt of `generation` (started by the connection's task,
    /// outside the lock) until the attempt connects or fails. Returns false when the attempt is
    /// already given up (`disconnect()`, the run ending) before its task ran: the caller ends the
    /// span as cancelled. Otherwise returns the attempt number, if connecting, for the caller to set.
    mutating func keepConnectionSpan(_ span: any Span, generation: Generation) -> (kept: Bool, attempt: Int?) {
        guard self.engine.activeGeneration == generation else { return (false, nil) }
        self.connectionSpans[generation] = span
        if case .connecting(let attempt) = self.engine.state { return (true, attempt) }
        return (true, nil)
    }

    /// Ends the open connection spans as `state` says: successful when connected, failed with the
    /// cause when reconnecting or failed; `nil` ends them as the run ends. The spans are ended once
    /// the lock is released.
    mutating func endConnectionSpans(state: ConnectionState?) {
        guard !self.connectionSpans.isEmpty else { return }
        let spans = Array(self.connectionSpans.values)
        switch state {
        case .connected(let socketID):
            self.observed.append(.endSpans(spans, error: nil, socketID: socketID, cancelled: false))
        case .reconnecting(_, _, let cause), .failed(let cause):
            self.observed.append(.endSpans(spans, error: cause, socketID: nil, cancelled: false))
        case .disconnected, nil:
            // Given up on request (or the run ended) before the attempt connected.
            self.observed.append(.endSpans(spans, error: nil, socketID: nil, cancelled: true))
        case .initialized, .connecting: return
        }
        self.connectionSpans = [:]
    }

    /// Ends the span of `generation`, if still open, once the lock is released.
    mutating func endConnectionSpan(generation: Generation, cancelled: Bool) {
        guard let span = self.connectionSpans.removeValue(forKey: generation) else { return }
        self.observed.append(.endSpans([span], error: nil, socketID: nil, cancelled: cancelled))
    }
}
