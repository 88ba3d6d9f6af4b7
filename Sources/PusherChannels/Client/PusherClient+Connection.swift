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
            maximumMessageSize: self.options.maximumMessageSize, handshakeTimeout: self.options.handshakeTimeout,
            outboundBufferLimit: self.options.outboundBufferLimit)
        let outcome: ConnectionOutcome
        do {
            // The provider runs in the attempt, under its handshake timeout.
            configuration.headers = try await self.upgradeHeaders(abandoned: headersAbandoned)
            outcome = .closed(
                try await self.transport.connect(
                    to: url, configuration: configuration,
                    handler: ConnectionEvents(client: self, generation: generation)))
        } catch {
            outcome = .failed(error)
        }
        // A cancelled connection task means the run itself is ending (not a lost connection).
        if Task.isCancelled {
            self.withEngine { $0.connectionCancelled(generation: generation) }
        } else {
            self.withEngine { $0.connectionEnded(generation: generation, outcome: outcome) }
        }
    }
}
