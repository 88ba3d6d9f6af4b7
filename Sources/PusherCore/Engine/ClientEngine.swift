// SPDX-License-Identifier: MIT

/// The whole client protocol as one pure value: the connection, subscription, decryption and
/// sign-in state machines, the consumers of every channel, presence rosters, the client-event queue
/// and its pacing, provided authorizations, and the decoding of every control message.
///
/// It performs no I/O and reads no clock: the driver (`PusherClient`) feeds it inputs — inbound
/// frames, timer fires, consumers added and removed, answers of authorizers — each with the current
/// time, and performs the ``Action``s it returns, in order. Everything that decides *what* happens
/// lives here and is tested without sockets; the driver only decides *how*.
///
/// One timer model serves every deadline: the engine and its machines return
/// ``Action/scheduleTimer(_:deadline:)`` and ``Action/cancelTimer(_:)`` with a typed ``TimerID``
/// (handshake, activity, pong and close timeouts per ``Generation``, the reconnect delay, the
/// client-event pacing, the retry of a refused subscription, and the timeout of every authorizer
/// and user-authenticator call), with deadlines on the clock of the `at:` inputs; the driver keeps
/// them in one schedule and calls ``timerFired(_:at:random:)`` when one is due. A call that times out fails here as if the
/// authorizer had thrown, and ``Action/cancelCall(_:reason:call:)`` tells the driver to cancel it; its
/// late answer is ignored.
package struct ClientEngine: Sendable {
    package struct Configuration: Sendable {
        package var connection: ConnectionStateMachine.Configuration
        /// Whether an authorizer is configured (private, presence and encrypted channels need one).
        package var hasAuthorizer: Bool
        /// Whether this build can open encrypted payloads.
        package var encryptionAvailable: Bool
        /// Client events sent per second at most.
        package var clientEventRateLimit: Int
        /// Client events that may wait for one channel's subscription.
        package var clientEventQueueLimit: Int
        /// Members kept per presence channel at most; more are reported as `limitExceeded`.
        package var maximumPresenceMembers: Int
        /// Bytes of members (ids and `user_info`) kept per presence channel at most.
        package var maximumPresenceBytes: Int
        /// Events held per encrypted channel while its key reloads, at most.
        package var maximumHeldEncryptedEvents: Int
        /// Bytes of events held per encrypted channel while its key reloads, at most.
        package var maximumHeldEncryptedBytes: Int
        /// At most one key reload per encrypted channel per this interval.
        package var keyReloadInterval: Duration
        /// Opens one encrypted payload with a key (the cipher lives outside the engine).
        package var open: @Sendable (PusherMessage, [UInt8]) -> DecryptionStateMachine.Opened
        /// The 32-byte key a `shared_secret` stands for, or nil when it is not base64 of 32 bytes.
        package var key: @Sendable (_ sharedSecret: String) -> [UInt8]?

        /// How long the authorizer (and the user authenticator) may take to answer.
        package var authorizationTimeout: Duration
        /// Signs a subscription at once, without an authorizer call (in-process signing with the
        /// app secret: a computation, no I/O); nil for a channel it cannot sign that way, which
        /// then goes to the authorizer.
        package var localAuthorization:
            (@Sendable (_ socketID: String, _ channel: String) -> Result<ChannelAuthorization, PusherError>?)?
        /// What a refused subscription leads to.
        package var subscriptionRetry: SubscriptionRetry
        /// Seeds the jitter of subscription retries (the driver passes a random one).
        package var randomSeed: UInt64

        /// The defaults are ``ClientDefaults``'.
        package init(
            connection: ConnectionStateMachine.Configuration = .init(),
            hasAuthorizer: Bool = false,
            encryptionAvailable: Bool = false,
            clientEventRateLimit: Int = ClientDefaults.clientEventRateLimit,
            clientEventQueueLimit: Int = ClientDefaults.clientEventQueueLimit,
            maximumPresenceMembers: Int = ClientDefaults.maximumPresenceMembers,
            maximumPresenceBytes: Int = ClientDefaults.maximumPresenceBytes,
            maximumHeldEncryptedEvents: Int = ClientDefaults.maximumHeldEncryptedEvents,
            maximumHeldEncryptedBytes: Int = ClientDefaults.maximumHeldEncryptedBytes,
            keyReloadInterval: Duration = ClientDefaults.keyReloadInterval,
            authorizationTimeout: Duration = ClientDefaults.authorizationTimeout,
            open: @escaping @Sendable (PusherMessage, [UInt8]) -> DecryptionStateMachine.Opened = { _, _ in .wrongKey },
            key: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
            localAuthorization: (@Sendable (String, String) -> Result<ChannelAuthorization, PusherError>?)? = nil,
            subscriptionRetry: SubscriptionRetry = .never,
            randomSeed: UInt64 = 0
        ) {
            self.connection = connection
            self.hasAuthorizer = hasAuthorizer
            self.encryptionAvailable = encryptionAvailable
            self.clientEventRateLimit = clientEventRateLimit
            self.clientEventQueueLimit = clientEventQueueLimit
            self.maximumPresenceMembers = maximumPresenceMembers
            self.maximumPresenceBytes = maximumPresenceBytes
            self.maximumHeldEncryptedEvents = maximumHeldEncryptedEvents
            self.maximumHeldEncryptedBytes = maximumHeldEncryptedBytes
            self.keyReloadInterval = keyReloadInterval
            self.authorizationTimeout = authorizationTimeout
            self.open = open
            self.key = key
            self.localAuthorization = localAuthorization
            self.subscriptionRetry = subscriptionRetry
            self.randomSeed = randomSeed
        }
    }

    package internal(set) var configuration: Configuration
    var connection: ConnectionStateMachine
    var subscriptions: SubscriptionStateMachine
    var decryption: DecryptionStateMachine
    var signInMachine = SignInStateMachine()
    var consumers = ConsumerTable()
    /// Membership of subscribed presence channels, rebuilt on every subscription.
    var rosters: [ChannelName: PresenceRoster] = [:]
    /// The `channel_data` each presence channel was last subscribed with (it names "me").
    var presenceChannelData: [ChannelName: String] = [:]
    /// Authorizations passed with a subscription, per channel, until used for their socket id.
    var providedAuthorizations: [ChannelName: ProvidedAuthorization] = [:]
    var clientEvents: ClientEventQueue
    /// Authorizer and user-authenticator calls under way, by their timeout timer: the client's one
    /// table of calls (the driver attaches its handle to each).
    var outstandingCalls: [TimerID: OutstandingCall] = [:]
    var isFinished = false
    /// The time of the latest input that carried one.
    var now: Duration = .zero
    /// When the active connection last delivered a frame: its subscriptions were known alive then
    /// (the ``MissedWindow`` of their resubscription starts here).
    var lastFrameAt: Duration = .zero
    /// Channel events received so far (one increment each; drivers report the growth per batch).
    package internal(set) var channelEventsReceived = 0

    package init(configuration: Configuration) {
        self.configuration = configuration
        self.connection = ConnectionStateMachine(configuration: configuration.connection)
        self.subscriptions = SubscriptionStateMachine(
            retry: configuration.subscriptionRetry, seed: configuration.randomSeed)
        self.decryption = DecryptionStateMachine(
            maximumHeld: configuration.maximumHeldEncryptedEvents,
            maximumHeldBytes: configuration.maximumHeldEncryptedBytes,
            reloadInterval: configuration.keyReloadInterval)
        self.clientEvents = ClientEventQueue(
            rateLimit: configuration.clientEventRateLimit, queueLimit: configuration.clientEventQueueLimit)
    }

    // MARK: Reading
    // Queries answer the driver's public calls: they take the name the user gave, unvalidated (a
    // name that was never accepted finds nothing).

    /// The connection state now.
    package var state: ConnectionState { self.connection.publicState }

    /// Channels that currently have consumers, whether or not the server has confirmed them yet.
    package var channelNames: [String] { self.subscriptions.channelNames.map(\.rawValue) }

    /// The members of a subscribed presence channel now.
    package func members(of channel: String) -> PresenceSnapshot? {
        self.rosters[ChannelName(unchecked: channel)]?.snapshot
    }

    /// The signed-in user, if any.
    package var user: SignedInUser? { self.signInMachine.user }

    /// Whether the server has confirmed `channel` on the current connection.
    package func isSubscribed(_ channel: String) -> Bool {
        self.subscriptions.isSubscribed(ChannelName(unchecked: channel))
    }

    /// Whether `channel` was refused and waits to be subscribed again (``SubscriptionRetry``).
    package func isWaitingToRetry(_ channel: String) -> Bool {
        self.subscriptions.isWaitingToRetry(ChannelName(unchecked: channel))
    }

    /// How many consumers iterate events (or presence changes) of `channel`.
    package func consumerCount(on channel: String) -> Int { self.consumers.count(on: channel) }

    /// The generation of the socket being connected or connected, if any: an attempt of another
    /// generation has been given up or replaced.
    package var activeGeneration: Generation? { self.connection.activeGeneration }

    /// Channels the server has confirmed on the current connection.
    package var subscribedChannelCount: Int { self.subscriptions.subscribedChannelCount }

    /// How many consumers iterate the signed-in user's events.
    package var userConsumerCount: Int { self.consumers.user.count }
}

extension ClientEngine {
    /// Drop the connection and connect again at once (see ``ConnectionStateMachine/restart(at:)``);
    /// subscriptions are kept and made again on the new connection.
    package mutating func restart(at now: Duration) -> [Action] {
        self.now = now
        return self.apply(self.connection.restart(at: now))
    }

    /// The client now tries `count` endpoints in turn (see ``ConnectionStateMachine/endpointsChanged(count:)``).
    package mutating func endpointsChanged(count: Int) {
        self.connection.endpointsChanged(count: count)
    }

    /// The client switched to another app's authorizer (with its key): whether there is one, and
    /// its in-process signing. Subscriptions are authorized afresh on the next connection.
    package mutating func authorizerChanged(
        hasAuthorizer: Bool,
        localAuthorization: (@Sendable (String, String) -> Result<ChannelAuthorization, PusherError>?)?
    ) {
        self.configuration.hasAuthorizer = hasAuthorizer
        self.configuration.localAuthorization = localAuthorization
    }
}
