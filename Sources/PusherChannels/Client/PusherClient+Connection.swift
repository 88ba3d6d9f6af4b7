// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

extension PusherClient {
    private enum ConnectionOutcome: Sendable {
        case closed(TransportClose?)
        case failed(any Error)
        case aborted
    }

    func openConnection(generation: Generation) {
        // `connect()` checked the options before the engine asked for a socket.
        guard let next = self.nextEndpoint() else { return }
        let url = next.url
        let handle = ConnectionHandle(endpoint: next.endpoint)
        self.connections[generation] = handle
        self.log(.debug, "opening connection", ["pusher.generation": "\(generation)"])
        self.commands.yield(.startConnection(generation: generation, url: url, handle))
    }

    /// One socket's whole life: open, read and write; ends when the socket closes, fails or is
    /// aborted through its handle. Its timeouts are the engine's timers (see `PusherClient+Timers.swift`).
    nonisolated func runConnection(generation: Generation, url: String, handle: ConnectionHandle) async {
        await self.startConnectionSpan(generation: generation, endpoint: handle.endpoint)
        let configuration = TransportConfiguration(maximumMessageSize: self.options.maximumMessageSize)
        // Two children: the socket and the abort signal. The first outcome ends the other.
        let outcome = await withTaskGroup(of: ConnectionOutcome?.self) { group in
            group.addTask {
                do {
                    // The provider runs in the attempt, under its handshake timeout.
                    var configuration = configuration
                    configuration.headers = try await self.upgradeHeaders()
                    return .closed(
                        try await self.transport.connect(to: url, configuration: configuration) { connection in
                            await self.transportOpened(generation: generation)
                            try await self.exchange(on: connection, generation: generation, handle: handle)
                        }
                    )
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                await handle.abort.waitUntilFired()
                return .aborted
            }
            var outcome = ConnectionOutcome.aborted
            while let result = await group.next() {
                if let result {
                    outcome = result
                    break
                }
            }
            group.cancelAll()
            return outcome
        }
        // A cancelled connection task means the run itself is ending (not a lost connection).
        if Task.isCancelled {
            await self.connectionCancelled(generation: generation)
        } else {
            await self.connectionEnded(generation: generation, outcome: outcome)
        }
    }

    /// Writes the outbox and reads inbound batches until the connection ends.
    private nonisolated func exchange(
        on connection: any TransportConnection, generation: Generation, handle: ConnectionHandle
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in handle.frames {
                    switch frame {
                    case .text(let text):
                        try await connection.send(text)
                        handle.wrote(text)
                    case .close: try await connection.close()
                    }
                }
            }
            try await self.readInbound(from: connection, generation: generation)
            group.cancelAll()
        }
    }

    /// Reads inbound batches on this actor until the connection ends: the transport resumes the
    /// actor itself with each batch, without a hop through another executor. While a consumer is
    /// over its limits (`pauseReading`), the next batch waits: the transport's bounded queue fills
    /// and it stops reading from the socket (flow control).
    private func readInbound(from connection: any TransportConnection, generation: Generation) async throws {
        while let batch = try await connection.receive(isolation: self) {
            self.received(batch, generation: generation)
            if self.mustWaitForConsumers(generation) { await self.waitForConsumers(generation: generation) }
            // The connection is being torn down: what is left is not read.
            if Task.isCancelled { return }
        }
    }

    /// Whether the reader of `generation` must wait: a consumer is over its limits and the socket
    /// is the active one (a socket being closed is read to its end, so that its close completes).
    private func mustWaitForConsumers(_ generation: Generation) -> Bool {
        !self.flowGate.isOpen && self.engine.activeGeneration == generation && !Task.isCancelled
    }

    /// Waits until no consumer is over its limits, the socket stops being the active one, or the
    /// connection task is cancelled. The engine meanwhile takes the socket's silence for the
    /// client's own doing.
    private func waitForConsumers(generation: Generation) async {
        self.engine.inboundPaused(generation: generation)
        self.metrics?.readingPaused()
        self.pausedReaders += 1
        while self.mustWaitForConsumers(generation) { await self.flowGate.waitUntilOpen(isolation: self) }
        self.pausedReaders -= 1
        self.engine.inboundResumed(generation: generation, at: self.clock.now)
    }

    private func connectionCancelled(generation: Generation) {
        self.connections.removeValue(forKey: generation)?.finish()
        if let span = self.connectionSpans.removeValue(forKey: generation) {
            span.attributes["pusher.cancelled"] = true
            span.end()
        }
    }

    private func connectionEnded(generation: Generation, outcome: ConnectionOutcome) {
        // The engine's new state ends the attempt's span with its cause; a socket the engine had
        // already left behind ends its span here.
        defer { self.connectionSpans.removeValue(forKey: generation)?.end() }
        let handle = self.connections.removeValue(forKey: generation)
        handle?.finish()
        let now = self.clock.now
        let random = Double.random(in: 0..<1)
        switch outcome {
        case .closed(let close):
            // A close frame with an error code is worth a notice. Without a frame (a drop, or the
            // end of this client's own close) the reconnection, if any, says why at `notice`.
            let level: Logger.Level = (close.map { $0.code != 1000 } ?? false) ? .notice : .debug
            self.log(
                level, "connection closed",
                [
                    "pusher.generation": "\(generation)",
                    "pusher.close_code": "\(close.map { String($0.code) } ?? "none")",
                    "pusher.reason": "\(close?.reason ?? "")",
                ])
            if let limit = close?.exceededMessageSizeLimit {
                self.perform(self.engine.messageTooLarge(generation: generation, limit: limit, at: now, random: random))
            } else {
                self.perform(
                    self.engine.transportClosed(
                        generation: generation, closeCode: close?.code, reason: close?.reason, at: now, random: random))
            }
        case .failed(let error):
            // The transport's own typed errors (such as tlsFailed) reach the user as they are.
            let failure =
                error as? PusherError ?? PusherError(.transportFailed, "connection failed: \(error)", cause: error)
            self.log(
                .warning, "connection failed",
                [
                    "pusher.generation": "\(generation)", "pusher.error": "\(failure.code)",
                    "pusher.reason": "\(failure.message)",
                ])
            self.perform(self.engine.transportFailed(generation: generation, error: failure, at: now, random: random))
        case .aborted:
            if let overflow = handle?.overflow {
                self.log(.warning, "connection dropped: outbox over its limit", ["pusher.generation": "\(generation)"])
                self.perform(
                    self.engine.transportFailed(generation: generation, error: overflow, at: now, random: random))
                return
            }
            self.log(.debug, "connection dropped", ["pusher.generation": "\(generation)"])
            self.perform(
                self.engine.transportClosed(
                    generation: generation, closeCode: nil, reason: nil, at: now, random: random))
        }
    }

    private func transportOpened(generation: Generation) {
        self.perform(self.engine.transportOpened(generation: generation, at: self.clock.now))
    }
}
