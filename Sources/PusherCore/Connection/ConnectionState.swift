// SPDX-License-Identifier: MIT

/// The connection's state as users see it.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Created; `run()` has not connected yet.
    case initialized
    /// Opening a socket and waiting for `pusher:connection_established`. `attempt` is 0 for the
    /// first connection and counts reconnection attempts since the last successful one.
    case connecting(attempt: Int)
    /// The socket is open and the server has sent `pusher:connection_established`.
    case connected(socketID: String)
    /// The connection was lost; attempt `attempt` starts after `delay`. `cause` says why.
    case reconnecting(attempt: Int, delay: Duration, cause: PusherError)
    /// Disconnected on request; nothing happens until `connect()`.
    case disconnected
    /// Stopped for good: a 4000–4099 close, or reconnection attempts used up. `connect()` starts
    /// afresh.
    case failed(PusherError)

    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    public var socketID: String? {
        if case .connected(let socketID) = self { return socketID }
        return nil
    }

    public var description: String {
        switch self {
        case .initialized: "initialized"
        case .connecting(let attempt): "connecting(attempt: \(attempt))"
        case .connected(let socketID): "connected(socketID: \(socketID))"
        case .reconnecting(let attempt, let delay, let cause):
            "reconnecting(attempt: \(attempt), delay: \(delay), cause: \(cause))"
        case .disconnected: "disconnected"
        case .failed(let error): "failed(\(error))"
        }
    }
}
