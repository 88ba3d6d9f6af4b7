// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import ServiceLifecycle
import Tracing

/// A client for the Pusher Channels protocol (version 7), for Pusher and every server that speaks it.
///
/// The client's background work (the socket, timers, reconnection) happens only while ``run()``
/// runs: call it in a task group, hand the client to a swift-service-lifecycle `ServiceGroup`, or
/// use ``withPusherClient(key:options:logger:isolation:_:)``, which runs it around a closure.
///
/// ```swift
/// let client = PusherClient(key: "app-key", options: .init(cluster: "eu"))
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await client.run() }
///     for try await event in client.events(on: "prices", named: "new-price") {
///         let update = try event.decode(PriceUpdate.self)
///     }
/// }
/// ```
///
/// Iterating ``events(on:named:authorization:buffering:)`` subscribes; cancelling the iterating task (or leaving
/// the loop) unsubscribes once the channel's last consumer is gone. Subscriptions are kept as
/// desired state: made before or after connecting, and made again after every reconnect.
///
/// Every timer (handshake, activity, pong and close timeouts, reconnect backoff, client-event pacing,
/// authorization timeouts) runs on the injected `Clock`, so tests can drive the client in virtual time.
///
/// Cancelling the task that runs ``run()`` drops the connection at once; a graceful shutdown (from
/// a `ServiceGroup`, or ``shutdown()``) closes it with a normal close frame first. Either way all
/// sequences finish, and the client cannot be run again.
public actor PusherClient: Service {
    /// The application key.
    public nonisolated let key: String
    public nonisolated let options: PusherClientOptions

    /// The value of the `client` query parameter the server sees.
    public static let clientName = "swift-pusher-channels"
    /// This library's version, sent as the `version` query parameter.
    public static let version = "0.1.0"

    nonisolated let clock: ClockAdapter
    nonisolated let logger: Logger?
    nonisolated let transport: any PusherTransport
    nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>
    nonisolated let observers = ObserverRegistry()
    /// Closed while a consumer with the `pauseReading` policy is over its limits: the socket's
    /// reader waits at it (flow control, see ``BufferingPolicy``).
    nonisolated let flowGate = FlowGate()
    /// Consumers made since the actor last looked (see ``registerPendingConsumers()``).
    nonisolated let pendingConsumers = PendingConsumers()
    /// The endpoints of the options with their URLs, or why the options cannot form one or are
    /// invalid (checked before every connect).
    nonisolated let configuredEndpoints: Result<EndpointRotation<ConnectionEndpoint>, PusherError>
    /// The endpoints (the options', or those of the last ``switchEndpoint(to:fallbacks:)``) and which
    /// one the next attempt goes to; nil when the options are invalid.
    var endpointRotation: EndpointRotation<ConnectionEndpoint>?

    private enum RunPhase {
        case idle, running, finished
    }

    private var runPhase = RunPhase.idle
    /// Every protocol decision is the engine's; this actor performs its actions.
    var engine: ClientEngine
    var eventConsumers: [ConsumerID: EventConsumer] = [:]
    var presenceConsumers: [ConsumerID: ConsumerBuffer<PresenceChange>] = [:]
    var connections: [Generation: ConnectionHandle] = [:]
    /// Every timer the engine asked for. One child task of ``run()`` sleeps until the earliest
    /// deadline (see `PusherClient+Timers.swift`).
    var timers = TimerSchedule()
    /// What the timer task sleeps until: the schedule's earliest deadline, with a version that
    /// changes whenever it does.
    nonisolated let timerAlarm = WaitableState(TimerAlarm())
    /// The deadline last handed to the timer task.
    var armedDeadline: Duration?
    /// Authorizer and user-authenticator calls under way, by their timeout timer, with their start.
    var calls: [TimerID: (cancellation: CallCancellation, start: Duration)] = [:]
    var consumerWaiters: [(channel: String, count: Int, signal: WaitableState<Bool>)] = []
    /// Reused across batches so that the hot path allocates no action list per read.
    var actionBuffer: [ClientEngine.Action] = []
    /// swift-metrics instruments; nil (nothing recorded) without a metrics backend.
    var metrics: ClientMetrics?
    /// The tracing span of each connection attempt, until it connects or fails.
    var connectionSpans: [Generation: any Span] = [:]
    /// Pace the log lines about events dropped under `dropOldest` and `dropNewest`, and about
    /// consumers failed as too slow.
    var droppedEventsLog = LogPacer()
    var failedConsumersLog = LogPacer()
    var pausedReadingLog = LogPacer()
    /// Calls of ``triggerWaitingForRoom(_:on:data:)`` waiting for the client-event queue to have room.
    var clientEventRoomWaiters: [WaitableState<Bool>] = []
    /// Socket readers waiting at ``flowGate`` now.
    var pausedReaders = 0

    /// Creates a client whose timers run on the continuous clock.
    ///
    /// - Parameters:
    ///   - key: The application key.
    ///   - options: Where to connect and how to behave.
    ///   - logger: Where to log. Without one the client logs nothing. Event payloads and secrets are
    ///     logged at `trace` level at most.
    public init(key: String, options: PusherClientOptions = .init(), logger: Logger? = nil) {
        self.init(key: key, options: options, clock: ContinuousClock(), logger: logger)
    }

    /// Creates a client whose timers run on `clock` (a virtual clock in tests).
    public init<C: Clock>(key: String, options: PusherClientOptions = .init(), clock: C, logger: Logger? = nil)
    where C.Duration == Duration {
        self.init(
            key: key, options: options, clock: clock, logger: logger,
            transport: NIOWebSocketTransport(tlsConfiguration: options.tlsConfiguration, proxy: options.proxy))
    }

    /// Creates a client that connects through `transport` (an in-memory one in tests).
    package init<C: Clock>(
        key: String, options: PusherClientOptions, clock: C, logger: Logger?, transport: any PusherTransport
    )
    where C.Duration == Duration {
        self.key = key
        self.options = options
        self.clock = ClockAdapter(clock)
        self.logger = logger
        self.transport = transport
        let configuredEndpoints = Self.endpointRotation(options: options, key: key)
        self.configuredEndpoints = configuredEndpoints
        self.endpointRotation = try? configuredEndpoints.get()
        self.engine = ClientEngine(
            configuration: ClientEngine.Configuration(
                connection: options.stateMachineConfiguration,
                hasAuthorizer: options.authorizer != nil,
                encryptionAvailable: SecretBox.isAvailable,
                clientEventRateLimit: options.clientEventRateLimit,
                clientEventQueueLimit: options.clientEventQueueLimit,
                maximumPresenceMembers: options.maximumPresenceMembers,
                maximumPresenceBytes: options.maximumPresenceBytes,
                maximumHeldEncryptedEvents: options.maximumHeldEncryptedEvents,
                maximumHeldEncryptedBytes: options.maximumHeldEncryptedBytes,
                keyReloadInterval: options.keyReloadInterval,
                authorizationTimeout: options.authorizationTimeout,
                open: { message, key in EncryptedPayload.open(message, key: key) },
                key: { secret in EncryptedPayload.key(fromSharedSecret: secret) },
                localAuthorization: options.authorizer?.local,
                subscriptionRetry: options.subscriptionRetry,
                randomSeed: .random(in: 0...UInt64.max)
            )
        )
        self.engine.endpointsChanged(count: 1 + options.fallbackEndpoints.count)
        (self.commandStream, self.commands) = AsyncStream.makeStream()
        self.metrics = ClientMetrics(options: options.metrics)
    }

    // MARK: Observing

    /// The connection state now.
    public var state: ConnectionState { self.engine.state }

    /// Channels that currently have consumers, whether or not the server has confirmed them yet.
    public var channels: [String] {
        self.registerPendingConsumers()
        return self.engine.channelNames
    }

    /// How many consumers are registered for events of `channel` now (the package's own tests use it
    /// to check that consumers end). ``userEventsConsumers`` counts the consumers of
    /// ``userEvents(named:buffering:)``.
    package func consumerCount(on channel: String) -> Int {
        self.registerPendingConsumers()
        return self.registeredConsumerCount(on: channel)
    }

    /// ``consumerCount(on:)`` without registering pending consumers first (for ``perform(_:)``).
    func registeredConsumerCount(on channel: String) -> Int {
        channel == Self.userEventsConsumers ? self.engine.userConsumerCount : self.engine.consumerCount(on: channel)
    }

    /// Whether a call of ``triggerWaitingForRoom(_:on:data:)`` waits for room (for the package's tests).
    package var isWaitingForClientEventRoom: Bool { !self.clientEventRoomWaiters.isEmpty }

    /// Whether a socket's reader waits for a consumer to catch up (for the package's tests of flow control).
    package var isReadingPaused: Bool { self.pausedReaders > 0 }

    /// The name ``consumerCount(on:)`` and ``waitForConsumers(on:count:)`` take for the consumers of
    /// ``userEvents(named:buffering:)`` (not a channel).
    package static let userEventsConsumers = ClientEngine.userEventsChannel

    /// Suspends until exactly `count` consumers are registered for events of `channel` (or the task
    /// is cancelled). For the package's own tests of consumers made in other tasks.
    package func waitForConsumers(on channel: String, count: Int = 1) async {
        guard self.consumerCount(on: channel) != count else { return }
        let signal = WaitableState(false)
        self.consumerWaiters.append((channel, count, signal))
        await signal.waitUntilFired()
        // A cancelled wait leaves nothing behind.
        self.consumerWaiters.removeAll { $0.signal === signal }
    }

    /// Connection states, starting with the current one.
    public nonisolated var connectionStates: ConnectionStateSequence {
        PusherSequence { [observers] in observers.observeStates() }
    }

    /// Errors: connection closes and transport failures (also visible in the state), server
    /// `pusher:error` messages, malformed frames, failed subscriptions.
    public nonisolated var errors: PusherErrorSequence {
        PusherSequence { [observers] in observers.observeErrors() }
    }

    /// Subscription confirmations and refusals, for one channel or (with `nil`) for all.
    public nonisolated func subscriptionEvents(on channel: String? = nil) -> SubscriptionEventSequence {
        PusherSequence { [observers] in observers.observeSubscriptions(channel: channel) }
    }

    /// The number of connections subscribed to `channel`, each time the server reports it
    /// (`pusher_internal:subscription_count`; it must be enabled for the app, and presence channels
    /// have members instead). Counts of 0 are reported too. Does not subscribe by itself.
    public nonisolated func subscriptionCounts(on channel: String) -> PusherSequence<Int> {
        PusherSequence { [observers] in observers.observeSubscriptionCounts(channel: channel) }
    }

    /// Events of private-encrypted channels that could not be delivered (malformed payloads, keys
    /// that do not open them even after a reload, failed reloads), for one channel or (with `nil`)
    /// for all. The other events of the channel keep flowing. Never carries keys or plaintext.
    public nonisolated func decryptionFailures(on channel: String? = nil) -> PusherSequence<DecryptionFailure> {
        PusherSequence { [observers] in observers.observeDecryptionFailures(channel: channel) }
    }

    // MARK: Control

    /// Connects, if not connected or connecting. After a failure or ``disconnect()`` this starts
    /// afresh; while waiting to reconnect it skips the rest of the delay.
    ///
    /// Options that cannot form a connection (an invalid key, host, cluster, port or path) or would
    /// crash or loop the client (a zero or over-a-year timeout or delay, a NaN backoff factor, a
    /// `maximumMessageSize` outside 1…2³²−1; see ``PusherClientOptions``) make the state `failed`
    /// with an `invalidConfiguration` error at once, without retries.
    public func connect() {
        self.registerPendingConsumers()
        switch self.configuredEndpoints {
        case .success:
            self.perform(self.engine.connect(at: self.clock.now))
        case .failure(let error):
            self.perform(self.engine.configurationInvalid(error, at: self.clock.now))
        }
    }

    /// Closes the connection (normal close) and cancels any pending reconnection, in every state.
    /// Subscriptions are kept and made again on the next ``connect()``.
    public func disconnect() {
        self.perform(self.engine.disconnect(at: self.clock.now))
    }

    /// Checks the connection now: sends `pusher:ping` at once, and if nothing arrives within the pong
    /// timeout, drops the socket and reconnects. Call it when the network changed (for example from
    /// an `NWPathMonitor` update) or the app returns to the foreground, instead of waiting for the
    /// activity timeout to notice a dead socket.
    public func checkConnection() {
        self.perform(self.engine.checkConnection(at: self.clock.now))
    }

    /// Asks ``run()`` to finish gracefully: the socket is closed with a normal close frame, then
    /// every sequence finishes and `run()` returns.
    public nonisolated func shutdown() {
        self.commands.yield(.shutdown)
    }

    // MARK: Running

    /// Runs the client until it is shut down or the calling task is cancelled. Call it once.
    ///
    /// - Throws: ``PusherError`` with code `alreadyRunning` when called a second time.
    public func run() async throws {
        guard case .idle = self.runPhase else {
            throw PusherError(.alreadyRunning, "run() may be called only once per client")
        }
        self.runPhase = .running
        self.registerPendingConsumers()
        self.log(.debug, "client running", ["pusher.host": "\(self.options.endpoint.host)"])
        await withGracefulShutdownHandler {
            await self.runLoop()
        } onGracefulShutdown: {
            self.commands.yield(.shutdown)
        }
        // When the run was cancelled rather than shut down, the sockets are already gone: only the
        // final state remains to be told.
        self.registerPendingConsumers()
        self.perform(self.engine.runEnded(at: self.clock.now))
        self.pendingConsumers.close()
        self.observers.finishAll()
        for handle in self.connections.values { handle.finish() }
        self.connections = [:]
        self.endConnectionSpans(state: nil)
        self.timers = TimerSchedule()
        self.calls = [:]
        for waiter in self.consumerWaiters { waiter.signal.fire() }
        self.consumerWaiters = []
        self.clientEventRoomMayHaveChanged()
        self.runPhase = .finished
        self.log(.debug, "client stopped")
    }

    private func runLoop() async {
        await withDiscardingTaskGroup { group in
            // The one task that runs every timer.
            group.addTask { await self.runTimers() }
            if self.options.connectsAutomatically { self.connect() }
            loop: for await command in self.commandStream {
                switch command {
                case .startConnection(let generation, let url, let handle):
                    group.addTask { await self.runConnection(generation: generation, url: url, handle: handle) }
                case .authorize(let channel, let socketID, let cancel):
                    group.addTask { await self.runAuthorization(channel: channel, socketID: socketID, cancel: cancel) }
                case .reloadKey(let channel, let socketID, let cancel):
                    group.addTask {
                        await self.runAuthorization(
                            channel: channel, socketID: socketID, isKeyReload: true, cancel: cancel)
                    }
                case .authenticateUser(let socketID, let cancel):
                    group.addTask { await self.runUserAuthentication(socketID: socketID, cancel: cancel) }
                case .registerConsumers:
                    self.registerPendingConsumers()
                case .removeConsumer(let id):
                    self.registerPendingConsumers()
                    self.perform(self.engine.removeConsumer(id))
                case .shutdown:
                    self.registerPendingConsumers()
                    self.perform(self.engine.shutdown(at: self.clock.now))
                case .finish:
                    break loop
                }
            }
            group.cancelAll()
        }
    }

    // MARK: Logging

    nonisolated func log(
        _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ metadata: Logger.Metadata = [:]
    ) {
        self.logger?.log(level: level, message(), metadata: metadata)
    }
}
