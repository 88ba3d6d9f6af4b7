// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// What the driver must do. Performed in the order given.
    package enum Action: Sendable, Hashable {
        // The socket.
        /// Open a socket for `generation` and run its watchdog.
        case openConnection(generation: Int)
        /// Send a text frame on the socket of `generation`.
        case send(generation: Int, text: String)
        /// Start the close handshake (normal closure) on `generation`.
        case closeConnection(generation: Int)
        /// Drop the socket of `generation` at once, without a handshake.
        case abortConnection(generation: Int)
        /// The watchdog of `generation` must ask ``ClientEngine/watchdogFired(generation:at:random:)`` again now.
        case rearmWatchdog(generation: Int)

        // Timers.
        case startReconnectTimer(generation: Int, delay: Duration)
        case cancelReconnectTimer(generation: Int)
        /// Call ``ClientEngine/clientEventTimerFired(at:)`` after `delay` (client-event pacing).
        case startClientEventTimer(delay: Duration)

        // Asynchronous work.
        /// Ask the authorizer for `channel` on `socketID`; answer with ``ClientEngine/authorizationCompleted(channel:socketID:result:)``.
        case authorize(channel: String, socketID: String)
        /// Ask the authorizer again for an encrypted channel's key; answer with ``ClientEngine/keyReloaded(channel:socketID:result:)``.
        case reloadKey(channel: String, socketID: String)
        /// Ask the user authenticator; answer with ``ClientEngine/userAuthenticated(socketID:result:)``.
        case authenticateUser(socketID: String)

        // Consumers.
        /// Hand `event` to consumer `consumer` (the hot path).
        case deliver(ChannelEvent, consumer: ConsumerID)
        /// Hand a membership change to presence consumer `consumer`.
        case deliverPresence(PresenceChange, consumer: ConsumerID)
        /// End consumer `consumer`'s sequence, throwing `error` if there is one. The engine has forgotten it.
        case finishConsumer(ConsumerID, error: PusherError?)
        /// The number of consumers of `channel` changed (``ClientEngine/userEventsChannel`` for user events).
        case consumersChanged(channel: String)

        // Notifications.
        case publishState(ConnectionState)
        case publishUser(UserState)
        case report(PusherError)
        case reportDecryptionFailure(DecryptionFailure)
        case notifySubscription(SubscriptionEvent)
        case notifySubscriptionCount(Int, channel: String)
        case notifyWatchlist(WatchlistEvent)

        /// The run can end: the engine is stopped and owns no socket.
        case finished
    }

    /// The name under which the consumers of the signed-in user's events are counted.
    package static let userEventsChannel = "#server-to-user"
}
