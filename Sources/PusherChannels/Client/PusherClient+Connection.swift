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

    func openConnection(generation: Int) {
        // `connect()` checked the URL before the engine asked for a socket.
        guard case .success(let url) = self.connectionURL else { return }
        let handle = ConnectionHandle()
        self.connections[generation] = handle
        self.log(.debug, "opening connection", ["pusher.generation": "\(generation)"])
        self.commands.yield(.startConnection(generation: generation, url: url, handle))
    }

    /// One socket's whole life: open, read and write, watchdog; ends when the socket closes, fails
    /// or is aborted through its handle.
    nonisolated func runConnection(generation: Int, url: String, handle: ConnectionHandle) async {
        await self.startConnectionSpan(generation: generation)
        let configuration = TransportConfiguration(maximumMessageSize: self.options.maximumMessageSize)
        // Three children: the socket, the abort signal, the watchdog (which returns nil). The first
        // outcome ends the other two.
        let outcome = await withTaskGroup(of: ConnectionOutcome?.self) { group in
            group.addTask {
                do {
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
                await handle.abort.wait()
                return .aborted
            }
            group.addTask {
                await self.runWatchdog(generation: generation, rearm: handle.rearmWatchdog)
                return nil
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
    private nonisolated func exchange(on connection: any TransportConnection, generation: Int, handle: ConnectionHandle)
        async throws
    {
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
    /// actor itself with each batch, without a hop through another executor.
    private func readInbound(from connection: any TransportConnection, generation: Int) async throws {
        while let batch = try await connection.receive(isolation: self) {
            self.received(batch, generation: generation)
        }
    }

    private func connectionCancelled(generation: Int) {
        self.connections.removeValue(forKey: generation)?.finish()
        if let span = self.connectionSpans.removeValue(forKey: generation) {
            span.attributes["pusher.cancelled"] = true
            span.end()
        }
    }

    private func connectionEnded(generation: Int, outcome: ConnectionOutcome) {
        // The engine's new state ends the attempt's span with its cause; a socket the engine had
        // already left behind ends its span here.
        defer { self.connectionSpans.removeValue(forKey: generation)?.end() }
        let handle = self.connections.removeValue(forKey: generation)
        handle?.finish()
        let now = self.clock.now
        let random = Double.random(in: 0..<1)
        switch outcome {
        case .closed(let close):
            self.log(
                .debug, "connection closed",
                [
                    "pusher.generation": "\(generation)",
                    "pusher.close_code": "\(close.map { String($0.code) } ?? "none")",
                ])
            if let limit = close?.exceededMessageSizeLimit {
                self.perform(self.engine.messageTooLarge(generation: generation, limit: limit, at: now, random: random))
            } else {
                self.perform(
                    self.engine.transportClosed(
                        generation: generation, closeCode: close?.code, reason: close?.reason, at: now, random: random))
            }
        case .failed(let error):
            self.log(.debug, "connection failed", ["pusher.generation": "\(generation)", "pusher.error": "\(error)"])
            // The transport's own typed errors (such as tlsFailed) reach the user as they are.
            let failure =
                error as? PusherError ?? PusherError(.transportFailed, "connection failed: \(error)", cause: error)
            self.perform(self.engine.transportFailed(generation: generation, error: failure, at: now, random: random))
        case .aborted:
            if let overflow = handle?.overflow {
                self.log(.debug, "connection dropped: outbox over its limit", ["pusher.generation": "\(generation)"])
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

    private func transportOpened(generation: Int) {
        self.perform(self.engine.transportOpened(generation: generation, at: self.clock.now))
    }

    /// Sleeps on the injected clock for as long as the engine says, asking again on every wake-up
    /// or re-arm; handles the handshake, activity, pong and close timeouts of one socket.
    private nonisolated func runWatchdog(generation: Int, rearm: WakeupSignal) async {
        var decision = await self.watchdogFired(generation: generation)
        while case .sleep(let duration) = decision {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await self.clock.sleep(for: duration) }
                group.addTask { await rearm.wait() }
                await group.next()
                group.cancelAll()
            }
            if Task.isCancelled { return }
            decision = await self.watchdogFired(generation: generation)
        }
    }

    private func watchdogFired(generation: Int) -> ConnectionStateMachine.WatchdogDecision {
        let (decision, actions) = self.engine.watchdogFired(
            generation: generation, at: self.clock.now, random: .random(in: 0..<1))
        self.perform(actions)
        return decision
    }

    // MARK: Timers

    nonisolated func runReconnectTimer(generation: Int, delay: Duration, cancellation: OneShotSignal) async {
        let elapsed = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.clock.sleep(for: delay)) != nil }
            group.addTask {
                await cancellation.wait()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if elapsed { await self.reconnectTimerFired(generation: generation) }
    }

    private func reconnectTimerFired(generation: Int) {
        self.reconnectTimers[generation] = nil
        self.perform(self.engine.reconnectTimerFired(generation: generation, at: self.clock.now))
    }

    nonisolated func runClientEventTimer(delay: Duration) async {
        guard (try? await self.clock.sleep(for: delay)) != nil else { return }
        await self.clientEventTimerFired()
    }

    private func clientEventTimerFired() {
        self.perform(self.engine.clientEventTimerFired(at: self.clock.now))
    }
}
