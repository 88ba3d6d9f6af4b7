// SPDX-License-Identifier: MIT

/// A timer of the client. The engine (and its state machines) asks for one with
/// ``ClientEngine/Action/scheduleTimer(_:deadline:)``, withdraws it with
/// ``ClientEngine/Action/cancelTimer(_:)``, and is told when it fires with
/// ``ClientEngine/timerFired(_:at:random:)``. At most one timer per id exists: scheduling an id
/// again moves its deadline.
package enum TimerID: Hashable, Sendable, CustomStringConvertible {
    /// The socket of a generation must deliver `pusher:connection_established` by then.
    case handshake(Generation)
    /// Check the connected socket's activity: ping it if it has been silent for the activity timeout.
    case activity(Generation)
    /// A ping went out: something must arrive by then, or the socket is dropped.
    case pong(Generation)
    /// A socket the client is closing must be gone by then, or it is dropped.
    case close(Generation)
    /// Open the socket of a generation (the reconnect delay is over).
    case reconnect(Generation)
    /// The rate limit allows the next client event.
    case clientEvents
    /// The authorizer must answer for a channel on a socket by then.
    case authorization(channel: ChannelName, socketID: String)
    /// The authorizer must answer a key reload of an encrypted channel on a socket by then.
    case keyReload(channel: ChannelName, socketID: String)
    /// The user authenticator must answer for a socket by then.
    case userAuthentication(socketID: String)
    /// Subscribe a refused channel again (``SubscriptionRetry``).
    case subscriptionRetry(ChannelName)

    package var description: String {
        switch self {
        case .handshake(let generation): "handshake(\(generation))"
        case .activity(let generation): "activity(\(generation))"
        case .pong(let generation): "pong(\(generation))"
        case .close(let generation): "close(\(generation))"
        case .reconnect(let generation): "reconnect(\(generation))"
        case .clientEvents: "clientEvents"
        case .authorization(let channel, let socketID): "authorization(\(channel), \(socketID))"
        case .keyReload(let channel, let socketID): "keyReload(\(channel), \(socketID))"
        case .userAuthentication(let socketID): "userAuthentication(\(socketID))"
        case .subscriptionRetry(let channel): "subscriptionRetry(\(channel))"
        }
    }
}
