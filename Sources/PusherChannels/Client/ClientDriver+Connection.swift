// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

/// How one connection attempt ended, as its task saw it.
enum ConnectionOutcome: Sendable {
    case closed(TransportClose?)
    case failed(any Error)
    /// The client dropped it.
    case aborted
}

extension ClientDriver {
    /// Opens a connection for the engine: chooses the endpoint and asks the run loop for the
    /// connection's task.
    mutating func openConnection(generation: Generation) {
        // `connect()` checked the configuration before the engine asked for a socket.
        guard let next = self.nextEndpoint() else { return }
        let handle = ConnectionHandle(endpoint: next.endpoint, commands: self.commands)
        self.connections[generation] = handle
        self.log(.debug, "opening connection", ["pusher.generation": "\(generation)"])
        self.commands.yield(
            .startConnection(
                generation: generation, url: next.url, endpoint: next.endpoint,
                headersAbandoned: handle.headersAbandoned))
    }

    /// The transport began the attempt of `generation`; one the client no longer wants is dropped.
    mutating func attemptBegan(_ connection: any TransportConnection, generation: Generation) {
        guard self.connections[generation] != nil else { return connection.abort() }
        self.connections[generation]?.began(connection)
    }

    mutating func connectionCancelled(generation: Generation) {
        if let pause = self.connections.removeValue(forKey: generation)?.pause { self.flowGate.cancelPause(pause) }
        self.endConnectionSpan(generation: generation, cancelled: true)
    }

    mutating func connectionEnded(generation: Generation, outcome: ConnectionOutcome) {
        // The engine's new state ends the attempt's span with its cause; a socket the engine had
        // already left behind ends its span here.
        defer { self.endConnectionSpan(generation: generation, cancelled: false) }
        let handle = self.connections.removeValue(forKey: generation)
        if let pause = handle?.pause { self.flowGate.cancelPause(pause) }
        let now = self.clock.now
        let random = Double.random(in: 0..<1)
        // An attempt the client dropped itself (a timeout, a disconnect) ends as a drop, whatever
        // the transport saw of it.
        var outcome = outcome
        if handle?.isAbandoned == true { outcome = .aborted }
        if case .failed(let error) = outcome, error is CancellationError { outcome = .aborted }
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
            self.log(.debug, "connection dropped", ["pusher.generation": "\(generation)"])
            self.perform(
                self.engine.transportClosed(
                    generation: generation, closeCode: nil, reason: nil, at: now, random: random))
        }
    }

}
