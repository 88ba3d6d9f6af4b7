// SPDX-License-Identifier: MIT

import PusherCore

/// What the client keeps for one connection attempt, inside its engine lock: the endpoint it was
/// opened to, the transport's connection once the attempt began, and what the engine asked of it
/// before then.
struct ConnectionHandle: Sendable {
    /// The endpoint this attempt went to, chosen when it was opened.
    let endpoint: PusherEndpoint
    /// Fired when the engine gives the attempt up while the upgrade headers provider still runs
    /// (before the transport has a connection to abort).
    let headersAbandoned = WaitableState(false)
    /// The transport's connection, from the moment the attempt began.
    private(set) var connection: (any TransportConnection)?
    /// The engine asked to drop or close the attempt: it is dropped as soon as it begins.
    private(set) var isAbandoned = false
    /// The key of the socket's pause at the flow gate, while its reading is paused there.
    var pause: UInt64?
    var isPaused: Bool { self.pause != nil }
    /// The client's run loop, which wakes `headersAbandoned` where no lock is held.
    private let commands: AsyncStream<Command>.Continuation

    init(endpoint: PusherEndpoint, commands: AsyncStream<Command>.Continuation) {
        self.endpoint = endpoint
        self.commands = commands
    }

    /// The attempt began. An attempt the engine already gave up on is dropped at once.
    mutating func began(_ connection: any TransportConnection) {
        self.connection = connection
        if self.isAbandoned { connection.abort() }
    }

    func send(_ text: String) {
        self.connection?.send(text)
    }

    /// Starts the close handshake; an attempt not open yet is dropped. A paused socket reads on,
    /// so that the close completes.
    mutating func close(gate: FlowGate) {
        guard let connection = self.connection else { return self.abort() }
        connection.close()
        if let pause = self.pause {
            gate.cancelPause(pause)
            connection.resumeReading()
        }
    }

    /// Drops the connection at once.
    mutating func abort() {
        self.isAbandoned = true
        // The provider's task is cancelled by the run loop, where no lock is held: its
        // cancellation handlers are user code, which must not run under the engine lock.
        if self.headersAbandoned.updateWithoutWaking({ $0 = true }) {
            let abandoned = self.headersAbandoned
            self.commands.yield(.wake { abandoned.wake() })
        }
        self.connection?.abort()
    }
}
