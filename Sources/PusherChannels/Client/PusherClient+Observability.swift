// SPDX-License-Identifier: MIT

import PusherCore
import Tracing

extension PusherClient {
    /// The batch's hand-over to consumers, counting what was delivered, dropped and failed: one
    /// counter increment per batch (per channel with channel labels), not per event.
    func flushCounting(_ staged: [EventConsumer], failed: inout [Int]) {
        guard let labelled = self.metrics?.includesChannelLabel else { return }
        var delivered = 0
        var dropped = 0
        for consumer in staged {
            let count = consumer.staged.count
            var tally = DeliveryTally()
            if !consumer.flush(tally: &tally) { failed.append(consumer.id) }
            if labelled {
                self.metrics?.delivered(count, channel: consumer.buffer.channel)
                self.metrics?.dropped(tally.dropped, channel: consumer.buffer.channel)
            } else {
                delivered += count
                dropped += tally.dropped
            }
            if tally.failedTooSlow { self.metrics?.consumerFailed(channel: consumer.buffer.channel) }
        }
        if !labelled {
            self.metrics?.delivered(delivered, channel: nil)
            self.metrics?.dropped(dropped, channel: nil)
        }
    }

    // MARK: Tracing

    /// Starts the span of the connection attempt of `generation`; it ends when the attempt connects
    /// or fails.
    func startConnectionSpan(generation: Int) {
        let span = startSpan("pusher.connect", ofKind: .client)
        guard span.isRecording else {
            span.end()
            return
        }
        span.attributes["server.address"] = self.options.endpoint.host
        if let port = self.options.endpoint.port { span.attributes["server.port"] = port }
        span.attributes["pusher.generation"] = generation
        if case .connecting(let attempt) = self.engine.state { span.attributes["pusher.attempt"] = attempt }
        self.connectionSpans[generation] = span
    }

    /// Ends the open connection spans as `state` says: successful when connected, failed with the
    /// cause when reconnecting or failed; `nil` ends them as the run ends.
    func endConnectionSpans(state: ConnectionState?) {
        guard !self.connectionSpans.isEmpty else { return }
        let error: PusherError?
        switch state {
        case .connected(let socketID):
            for span in self.connectionSpans.values { span.attributes["pusher.socket_id"] = socketID }
            error = nil
        case .reconnecting(_, _, let cause): error = cause
        case .failed(let cause): error = cause
        case .disconnected, nil: error = nil
        case .initialized, .connecting: return
        }
        for span in self.connectionSpans.values {
            if let error {
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: "\(error.code)"))
            }
            span.end()
        }
        self.connectionSpans = [:]
    }
}

extension PusherClient {
    /// Whether this client records metrics (a metrics backend was in place when it was created).
    package var recordsMetrics: Bool { self.metrics != nil }
}
