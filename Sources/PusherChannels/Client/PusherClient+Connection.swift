// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// One socket's whole life: open, read and write; ends when the socket closes, fails or is
    /// dropped by the client. Reads are handed to the engine by the transport, on its own thread
    /// (see ``ConnectionEvents``); the timeouts are the engine's timers.
    nonisolated func runConnection(
        generation: Generation, url: String, endpoint: PusherEndpoint, headersAbandoned: WaitableState<Bool>
    ) async {
        self.startConnectionSpan(generation: generation, endpoint: endpoint)
        var configuration = TransportConfiguration(
            maximumMessageSize: self.configuration.maximumMessageSize,
            handshakeTimeout: self.configuration.handshakeTimeout,
            outboundBufferLimit: self.configuration.outboundBufferLimit)
        let outcome: ConnectionOutcome
        // Whether the client gave the attempt up while the headers provider ran (which cancelled this task).
        var abandonedInHeaders = false
        do {
            // The provider runs in the attempt, under its handshake timeout.
            if let headers = try await self.upgradeHeaders(abandoned: headersAbandoned) {
                configuration.headers = headers
                outcome = .closed(
                    try await self.transport.connect(
                        to: url, configuration: configuration,
                        handler: ConnectionEvents(client: self, generation: generation)))
            } else {
                abandonedInHeaders = true
                outcome = .aborted
            }
        } catch {
            outcome = .failed(error)
        }
        // A cancelled connection task means the run itself is ending (not a lost connection), unless
        // the client cancelled it by giving the attempt up.
        if Task.isCancelled && !abandonedInHeaders {
            self.withEngine { $0.connectionCancelled(generation: generation) }
        } else {
            self.withEngine { $0.connectionEnded(generation: generation, outcome: outcome) }
        }
    }
}
