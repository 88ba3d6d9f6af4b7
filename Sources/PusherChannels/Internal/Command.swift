// SPDX-License-Identifier: MIT

import PusherCore

/// Work handed to the run loop: starting child tasks (only the loop owns the task group) and
/// clean-ups requested from synchronous contexts (iterator deinits).
enum Command: Sendable {
    case startConnection(generation: Int, url: String, ConnectionHandle)
    case startReconnectTimer(generation: Int, delay: Duration, cancellation: OneShotSignal)
    case startClientEventTimer(delay: Duration)
    case authorize(channel: String, socketID: String)
    case reloadKey(channel: String, socketID: String)
    case authenticateUser(socketID: String)
    /// Consumers wait in ``PendingConsumers``: register them.
    case registerConsumers
    case removeConsumer(ConsumerID)
    case shutdown
    case finish
}
