// SPDX-License-Identifier: MIT

extension ClientEngine {
    /// What the driver must do. Performed in the order given.
    ///
    /// Every event a consumer gets is one `deliver` action, so an action is kept small: the cases
    /// with large payloads (errors, states, timers), which are rare, are `indirect` (boxed), and an
    /// action takes 32 bytes at most instead of an error's size.
    package enum Action: Sendable, Hashable {
        // The socket.
        /// Open a socket for `generation`.
        case openConnection(generation: Generation)
        /// Send a text frame on the socket of `generation`.
        case send(generation: Generation, text: String)
        /// Start the close handshake (normal closure) on `generation`.
        case closeConnection(generation: Generation)
        /// Drop the socket of `generation` at once, without a handshake.
        case abortConnection(generation: Generation)

        // Timers.
        /// Call ``ClientEngine/timerFired(_:at:random:)`` with `timer` at `deadline` (an offset on
        /// the clock of the `at:` inputs; at once if it has passed). Replaces the timer's earlier
        /// deadline if it has one.
        indirect case scheduleTimer(TimerID, deadline: Duration)
        /// `timer` must not fire (unknown timers are ignored).
        indirect case cancelTimer(TimerID)

        // Asynchronous work.
        /// Ask the authorizer for `channel` on `socketID`; answer with ``ClientEngine/authorized(channel:socketID:result:)``.
        indirect case authorize(channel: ChannelName, socketID: String)
        /// Ask the authorizer again for an encrypted channel's key; answer with ``ClientEngine/keyReloaded(channel:socketID:result:at:)``.
        indirect case reloadKey(channel: ChannelName, socketID: String)
        /// Ask the user authenticator; answer with ``ClientEngine/userAuthenticated(socketID:auth:userData:)``
        /// or ``ClientEngine/userAuthenticationFailed(socketID:error:)``.
        case authenticateUser(socketID: String)
        /// Cancel the authorizer or user-authenticator call that `timer` times (``TimerID/authorization(channel:socketID:)``,
        /// ``TimerID/keyReload(channel:socketID:)`` or ``TimerID/userAuthentication(socketID:)``): it did
        /// not answer in time, and the engine went on with `reason` as its failure. A later answer is
        /// ignored. `call` is the engine's record of it (its start, the driver's handle).
        indirect case cancelCall(TimerID, reason: PusherError, call: OutstandingCall)

        // Consumers.
        /// Hand `event` to consumer `consumer` (the hot path).
        case deliver(ChannelEvent, consumer: ConsumerID)
        /// Hand a membership change to presence consumer `consumer`.
        indirect case deliverPresence(PresenceChange, consumer: ConsumerID)
        /// End consumer `consumer`'s sequence, throwing `error` if there is one. The engine has forgotten it.
        indirect case finishConsumer(ConsumerID, error: PusherError?)
        /// The number of consumers of `channel` changed; nil: of the signed-in user's events (counted
        /// under ``ClientEngine/userEventsChannel``).
        case consumersChanged(channel: ChannelName?)

        // Notifications.
        indirect case publishState(ConnectionState)
        indirect case publishUser(UserState)
        indirect case report(PusherError)
        indirect case reportDecryptionFailure(DecryptionFailure)
        indirect case notifySubscription(SubscriptionEvent)
        /// The server's `pusher_internal:subscription_count`: how many clients subscribe to `channel`.
        indirect case notifySubscriptionCount(Int, channel: ChannelName)
        indirect case notifyWatchlist(WatchlistEvent)

        /// The run can end: the engine is stopped and owns no socket.
        case finished
    }

    /// The name under which the consumers of the signed-in user's events are counted.
    package static let userEventsChannel = "#server-to-user"
}
