// SPDX-License-Identifier: MIT

extension ConnectionStateMachine {
    package enum Action: Sendable, Hashable {
        /// Open a socket for `generation` and run its watchdog.
        case openConnection(generation: Int)
        /// Send a text frame on the socket of `generation`.
        case send(generation: Int, text: String)
        /// Start the close handshake (normal closure) on `generation`.
        case closeConnection(generation: Int)
        /// Drop the socket of `generation` at once, without a handshake.
        case abortConnection(generation: Int)
        /// The watchdog of `generation` must ask again now: its deadline changed.
        case rearmWatchdog(generation: Int)
        case startReconnectTimer(generation: Int, delay: Duration)
        case cancelReconnectTimer(generation: Int)
        /// The package state changed.
        case publishState(ConnectionState)
        /// The connection is ready: (re)subscribe channels.
        case connectionReady(socketID: String)
        /// The ready connection is gone: subscriptions must wait for the next one.
        case connectionLost
        /// The run can end: the machine is stopped and owns no socket.
        case finished
    }

    /// What the watchdog of a socket does next.
    package enum WatchdogDecision: Sendable, Hashable {
        case sleep(Duration)
        case stop
    }
}
