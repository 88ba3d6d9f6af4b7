// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import ServiceLifecycle

/// A client for the Pusher Channels protocol (version 7), for Pusher and every server that speaks it.
///
/// The client's background work (the socket, timers, reconnection) happens only while ``run()``
/// runs: call it in a task group, hand the client to a swift-service-lifecycle `ServiceGroup`, or
/// use ``withPusherClient(key:options:logger:_:)``, which runs it around a closure.
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
/// Every timer (activity timeout, pong timeout, handshake timeout, reconnect backoff) runs on the
/// injected `Clock`, so tests can drive the client in virtual time.
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
    nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>

    private enum RunPhase {
        case idle, running, finished
    }

    struct EventListener {
        let id: Int
        let eventName: String?
        let failsWhenFull: Bool
        let continuation: AsyncThrowingStream<ChannelEvent, any Error>.Continuation
    }

    private var runPhase = RunPhase.idle
    var connection: ConnectionStateMachine
    var subscriptions = SubscriptionStateMachine()
    var connections: [Int: ConnectionHandle] = [:]
    private var reconnectTimers: [Int: OneShotSignal] = [:]

    struct PresenceListener {
        let id: Int
        let continuation: AsyncThrowingStream<PresenceChange, any Error>.Continuation
    }

    var channelListeners: [String: [EventListener]] = [:]
    var presenceListeners: [String: [PresenceListener]] = [:]
    /// Membership of subscribed presence channels, rebuilt on every subscription.
    var rosters: [String: PresenceRoster] = [:]
    /// The `channel_data` each presence channel was last subscribed with (it names "me").
    var presenceChannelData: [String: String] = [:]
    /// Client events waiting for their channel's subscription, per channel, in order.
    var waitingClientEvents: [String: [String]] = [:]
    /// The keys of subscribed private-encrypted channels and their reloads.
    var decryption = DecryptionStateMachine()
    /// User sign-in across connections.
    var signInMachine = SignInStateMachine()
    /// Consumers of the signed-in user's events.
    var userListeners: [EventListener] = []
    /// Authorizations passed with a subscription, per channel, until used for their socket id.
    var providedAuthorizations: [String: ProvidedAuthorization] = [:]
    /// Client events ready to go, in order, paced by `clientEventLimiter`.
    var clientEventQueue: [(channel: String, text: String)] = []
    var clientEventLimiter: RateLimiter
    nonisolated let clientEventWake = WakeupSignal()
    var allEventListeners: [EventListener] = []
    private var listenerChannels: [Int: String] = [:]
    nonisolated let observers = ObserverRegistry()
    private var nextListenerID = 0
    private var consumerWaiters: [(channel: String, count: Int, signal: OneShotSignal)] = []

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
        self.key = key
        self.options = options
        self.clock = ClockAdapter(clock)
        self.logger = logger
        self.connection = ConnectionStateMachine(configuration: options.stateMachineConfiguration)
        self.clientEventLimiter = RateLimiter(limit: options.clientEventRateLimit, per: .seconds(1))
        (self.commandStream, self.commands) = AsyncStream.makeStream()
    }

    // MARK: Observing

    /// The connection state now.
    public var state: ConnectionState { self.connection.publicState }

    /// Channels that currently have consumers, whether or not the server has confirmed them yet.
    public var channels: [String] { self.subscriptions.channelNames }

    /// How many consumers are iterating events of `channel` now. Useful to check that consumers end
    /// when expected (a count that only grows is a leak). ``userEventsConsumers`` counts the
    /// consumers of ``userEvents(named:buffering:)``.
    public func consumerCount(on channel: String) -> Int {
        if channel == Self.userEventsConsumers { return self.userListeners.count }
        return (self.channelListeners[channel]?.count ?? 0) + (self.presenceListeners[channel]?.count ?? 0)
    }

    /// The name ``consumerCount(on:)`` and ``waitForConsumers(on:count:)`` take for the consumers of
    /// ``userEvents(named:buffering:)`` (not a channel).
    public static let userEventsConsumers = "#server-to-user"

    /// Suspends until exactly `count` consumers iterate events of `channel` (or the task is
    /// cancelled).
    ///
    /// A consumer registers on its first `next()`, in its own task; tests use this to know that a
    /// consumer started in another task is listening before the server sends anything.
    public func waitForConsumers(on channel: String, count: Int = 1) async {
        guard self.consumerCount(on: channel) != count else { return }
        let signal = OneShotSignal()
        self.consumerWaiters.append((channel, count, signal))
        await signal.wait()
    }

    func consumersChanged(on channel: String) {
        guard !self.consumerWaiters.isEmpty else { return }
        let count = self.consumerCount(on: channel)
        self.consumerWaiters.removeAll { waiter in
            guard waiter.channel == channel, waiter.count == count else { return false }
            waiter.signal.fire()
            return true
        }
    }

    /// Events of `channel`, optionally only those named `eventName`. See ``ChannelEventSequence``.
    ///
    /// - Parameters:
    ///   - authorization: For a private or presence channel, an authorization you obtained yourself
    ///     for the current connection; used once instead of asking the authorizer. See
    ///     ``ProvidedAuthorization``.
    ///   - buffering: Overrides ``PusherClientOptions/buffering`` for this consumer.
    public nonisolated func events(
        on channel: String,
        named eventName: String? = nil,
        authorization: ProvidedAuthorization? = nil,
        buffering: BufferingPolicy? = nil
    ) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelSequence { () async throws(PusherError) in
            try await self.addListener(scope: .channel(channel, eventName: eventName), authorization: authorization, buffering: buffering)
        }
    }

    /// Every event of every channel that has a consumer, once each. Does not subscribe to anything by
    /// itself.
    public nonisolated func allEvents(buffering: BufferingPolicy? = nil) -> ChannelEventSequence {
        let buffering = buffering ?? self.options.buffering
        return ChannelSequence { () async throws(PusherError) in try await self.addListener(scope: .all, buffering: buffering) }
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

    // MARK: Control

    /// Connects, if not connected or connecting. After a failure or ``disconnect()`` this starts
    /// afresh; while waiting to reconnect it skips the rest of the delay.
    public func connect() {
        self.perform(self.connection.connect(at: self.clock.now))
    }

    /// Closes the connection (normal close) and cancels any pending reconnection, in every state.
    /// Subscriptions are kept and made again on the next ``connect()``.
    public func disconnect() {
        self.perform(self.connection.disconnect(at: self.clock.now))
    }

    /// Checks the connection now: sends `pusher:ping` at once, and if nothing arrives within the pong
    /// timeout, drops the socket and reconnects. Call it when the network changed (for example from
    /// an `NWPathMonitor` update) or the app returns to the foreground, instead of waiting for the
    /// activity timeout to notice a dead socket.
    public func checkConnection() {
        self.perform(self.connection.checkConnection(at: self.clock.now))
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
        self.log(.debug, "client running", ["pusher.host": "\(self.options.endpoint.host)"])
        await withGracefulShutdownHandler {
            await self.runLoop()
        } onGracefulShutdown: {
            self.commands.yield(.shutdown)
        }
        // When the run was cancelled rather than shut down, the sockets are already gone: only the
        // final state remains to be told.
        for case .publishState(let state) in self.connection.shutdown(at: self.clock.now) { self.publish(state) }
        self.finishAll()
        self.runPhase = .finished
        self.log(.debug, "client stopped")
    }

    private func runLoop() async {
        await withDiscardingTaskGroup { group in
            if self.options.connectsAutomatically { self.connect() }
            group.addTask { await self.runClientEventPump() }
            loop: for await command in self.commandStream {
                switch command {
                case .startConnection(let generation, let url, let handle):
                    group.addTask { await self.runConnection(generation: generation, url: url, handle: handle) }
                case .startReconnectTimer(let generation, let delay, let cancellation):
                    group.addTask { await self.runReconnectTimer(generation: generation, delay: delay, cancellation: cancellation) }
                case .authorize(let channel, let socketID):
                    group.addTask { await self.runAuthorization(channel: channel, socketID: socketID) }
                case .reloadKey(let channel, let socketID):
                    group.addTask { await self.runAuthorization(channel: channel, socketID: socketID, isKeyReload: true) }
                case .authenticateUser(let socketID):
                    group.addTask { await self.runUserAuthentication(socketID: socketID) }
                case .removeListener(let id):
                    self.removeListener(id)
                case .shutdown:
                    self.perform(self.connection.shutdown(at: self.clock.now))
                case .finish:
                    break loop
                }
            }
            group.cancelAll()
        }
    }

    private nonisolated func runReconnectTimer(generation: Int, delay: Duration, cancellation: OneShotSignal) async {
        let elapsed = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await self.clock.sleep(for: delay)
                    return true
                } catch {
                    return false
                }
            }
            group.addTask {
                await cancellation.wait()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if elapsed { await self.reconnectTimerFired(generation: generation) }
    }

    private func reconnectTimerFired(generation: Int) {
        self.reconnectTimers[generation] = nil
        self.perform(self.connection.reconnectTimerFired(generation: generation, at: self.clock.now))
    }

    /// Ends every consumer's sequence and drops all state (end of `run()`).
    private func finishAll() {
        for listeners in self.channelListeners.values {
            for listener in listeners { listener.continuation.finish() }
        }
        for listener in self.allEventListeners { listener.continuation.finish() }
        for listener in self.userListeners { listener.continuation.finish() }
        self.userListeners = []
        for listeners in self.presenceListeners.values {
            for listener in listeners { listener.continuation.finish() }
        }
        self.presenceListeners = [:]
        self.observers.finishAll()
        for handle in self.connections.values { handle.outbox.finish() }
        self.channelListeners = [:]
        self.allEventListeners = []
        self.listenerChannels = [:]
        self.connections = [:]
        self.reconnectTimers = [:]
        for waiter in self.consumerWaiters { waiter.signal.fire() }
        self.consumerWaiters = []
    }

    // MARK: Performing actions

    func perform(_ actions: [ConnectionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .openConnection(let generation):
                let url: String
                do {
                    url = try self.options.endpoint.url(key: self.key, client: Self.clientName, version: Self.version)
                } catch {
                    self.perform(self.connection.transportFailed(generation: generation, error: error, at: self.clock.now, random: .random(in: 0..<1)))
                    continue
                }
                let handle = ConnectionHandle()
                self.connections[generation] = handle
                self.log(.debug, "opening connection", ["pusher.generation": "\(generation)"])
                self.commands.yield(.startConnection(generation: generation, url: url, handle))
            case .send(let generation, let text):
                self.connections[generation]?.outbox.yield(.text(text))
            case .closeConnection(let generation):
                self.connections[generation]?.outbox.yield(.close)
            case .abortConnection(let generation):
                self.connections[generation]?.abort.fire()
            case .rearmWatchdog(let generation):
                self.connections[generation]?.rearmWatchdog.signal()
            case .startReconnectTimer(let generation, let delay):
                let cancellation = OneShotSignal()
                self.reconnectTimers[generation] = cancellation
                self.commands.yield(.startReconnectTimer(generation: generation, delay: delay, cancellation: cancellation))
            case .cancelReconnectTimer(let generation):
                self.reconnectTimers.removeValue(forKey: generation)?.fire()
            case .publishState(let state):
                self.publish(state)
            case .connectionReady(let socketID):
                self.perform(self.signInMachine.connected(socketID: socketID))
                for action in self.subscriptions.connected(socketID: socketID) { self.perform(action) }
            case .connectionLost:
                self.subscriptions.disconnected()
                self.rosters = [:]
                // Keys live only as long as their subscription.
                self.perform(self.decryption.removeAll())
                self.perform(self.signInMachine.disconnected())
                // Each was signed for the socket that is gone.
                self.providedAuthorizations = [:]
            case .finished:
                self.commands.yield(.finish)
            }
        }
    }

    func perform(_ action: SubscriptionStateMachine.Action?) {
        switch action {
        case nil:
            return
        case .authorize(let channel, let socketID):
            self.authorize(channel.rawValue, socketID: socketID)
        case .subscribe(let channel, let auth, let channelData):
            self.log(.debug, "subscribing", ["pusher.channel": "\(channel)"])
            if channel.kind == .presence { self.presenceChannelData[channel.rawValue] = channelData }
            self.sendOnReadyConnection(OutboundMessage.subscribe(channel: channel.rawValue, auth: auth, channelData: channelData))
        case .unsubscribe(let channel):
            self.log(.debug, "unsubscribing", ["pusher.channel": "\(channel)"])
            self.dropClientEvents(of: channel, reason: "the channel was unsubscribed")
            self.perform(self.decryption.removed(channel))
            self.sendOnReadyConnection(OutboundMessage.unsubscribe(channel: channel))
        case .succeeded(let channel, let isResubscription):
            self.log(.debug, "subscribed", ["pusher.channel": "\(channel)", "pusher.resubscription": "\(isResubscription)"])
            self.releaseClientEvents(of: channel)
            self.notifySubscription(.succeeded(channel: channel, isResubscription: isResubscription))
        case .failed(let channel, let error):
            self.log(.debug, "subscription failed", ["pusher.channel": "\(channel)"])
            for listener in self.channelListeners.removeValue(forKey: channel) ?? [] {
                self.listenerChannels[listener.id] = nil
                listener.continuation.finish(throwing: error)
            }
            for listener in self.presenceListeners.removeValue(forKey: channel) ?? [] {
                self.listenerChannels[listener.id] = nil
                listener.continuation.finish(throwing: error)
            }
            self.rosters[channel] = nil
            self.perform(self.decryption.removed(channel))
            self.consumersChanged(on: channel)
            self.notifySubscription(.failed(channel: channel, error: error))
            self.dropClientEvents(of: channel, reason: "the subscription failed")
            self.report(error)
        }
    }

    func sendOnReadyConnection(_ text: String) {
        guard let generation = self.connection.readyGeneration else { return }
        self.connections[generation]?.outbox.yield(.text(text))
    }

    private func publish(_ state: ConnectionState) {
        self.log(.debug, "connection state changed", ["pusher.state": "\(state)"])
        self.observers.publish(state)
        switch state {
        case .reconnecting(_, _, let cause), .failed(let cause):
            self.report(cause)
        default:
            break
        }
    }

    func report(_ error: PusherError) {
        self.log(.debug, "error", ["pusher.error": "\(error.code)", "pusher.close_code": "\(error.closeCode.map(String.init) ?? "-")"])
        self.observers.report(error)
    }

    private func notifySubscription(_ event: SubscriptionEvent) {
        self.observers.notify(event)
    }

    // MARK: Registration

    func makeListenerID() -> Int {
        self.nextListenerID += 1
        return self.nextListenerID
    }

    /// Validates `name` for subscribing: a valid name, a supported kind, an authorizer if needed.
    func subscribableChannel(_ name: String, provided: ProvidedAuthorization? = nil) throws(PusherError) -> ChannelName {
        let channel = try ChannelName(validating: name)
        if channel.kind == .privateEncrypted {
            guard SecretBox.isAvailable else {
                throw PusherError(.encryptionUnavailable, "private-encrypted channels need libsodium, which this build lacks", channel: name)
            }
            if provided != nil {
                throw PusherError(
                    .invalidConfiguration,
                    "private-encrypted channels take no provided authorization: their key must be reloadable through the authorizer",
                    channel: name
                )
            }
        }
        if provided != nil {
            guard channel.kind == .private || channel.kind == .presence else {
                throw PusherError(
                    .invalidConfiguration,
                    "a provided authorization is only accepted for private and presence channels",
                    channel: name
                )
            }
            self.providedAuthorizations[name] = provided
            return channel
        }
        if channel.requiresAuthorization && self.options.authorizer == nil {
            throw PusherError(
                .authorizationRequired,
                "\(channel.kind) channels need an authorizer (PusherClientOptions.authorizer)",
                channel: name
            )
        }
        return channel
    }

    /// Records that consumer `id` listens to `channel` and subscribes the channel if needed.
    func consumerRegistered(_ id: Int, on channel: ChannelName) {
        self.listenerChannels[id] = channel.rawValue
        self.perform(self.subscriptions.consumerAdded(channel))
        self.consumersChanged(on: channel.rawValue)
    }

    enum ListenerScope: Sendable {
        case channel(String, eventName: String?)
        case all
        case user(eventName: String?)
    }

    func addListener(
        scope: ListenerScope,
        authorization: ProvidedAuthorization? = nil,
        buffering: BufferingPolicy
    ) throws(PusherError) -> (AsyncThrowingStream<ChannelEvent, any Error>, ListenerToken) {
        if case .finished = self.runPhase {
            return (AsyncThrowingStream { $0.finish() }, ListenerToken(id: 0, commands: self.commands))
        }
        var channelName: ChannelName?
        if case .channel(let name, _) = scope {
            channelName = try self.subscribableChannel(name, provided: authorization)
        }
        let id = self.makeListenerID()
        let policy: AsyncThrowingStream<ChannelEvent, any Error>.Continuation.BufferingPolicy =
            switch buffering.whenFull {
            case .dropOldest: .bufferingNewest(buffering.limit)
            case .dropNewest, .fail: .bufferingOldest(buffering.limit)
            }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ChannelEvent.self, bufferingPolicy: policy)
        let commands = self.commands
        continuation.onTermination = { _ in commands.yield(.removeListener(id)) }
        let listener = EventListener(
            id: id,
            eventName: {
                switch scope {
                case .channel(_, let eventName), .user(let eventName): eventName
                case .all: nil
                }
            }(),
            failsWhenFull: buffering.whenFull == .fail,
            continuation: continuation
        )
        if let channelName {
            self.channelListeners[channelName.rawValue, default: []].append(listener)
            self.consumerRegistered(id, on: channelName)
        } else if case .user = scope {
            self.userListeners.append(listener)
            self.consumersChanged(on: Self.userEventsConsumers)
        } else {
            self.allEventListeners.append(listener)
        }
        return (stream, ListenerToken(id: id, commands: commands))
    }

    /// Removes a channel-event consumer. Idempotent: termination handlers and token deinits both call it.
    func removeListener(_ id: Int) {
        if let channel = self.listenerChannels.removeValue(forKey: id) {
            if var listeners = self.channelListeners[channel], let index = listeners.firstIndex(where: { $0.id == id }) {
                listeners[index].continuation.finish()
                listeners.remove(at: index)
                self.channelListeners[channel] = listeners.isEmpty ? nil : listeners
            } else if var listeners = self.presenceListeners[channel], let index = listeners.firstIndex(where: { $0.id == id }) {
                listeners[index].continuation.finish()
                listeners.remove(at: index)
                self.presenceListeners[channel] = listeners.isEmpty ? nil : listeners
            }
            self.perform(self.subscriptions.consumerRemoved(channel))
            self.consumersChanged(on: channel)
        } else if let index = self.allEventListeners.firstIndex(where: { $0.id == id }) {
            self.allEventListeners.remove(at: index).continuation.finish()
        } else if let index = self.userListeners.firstIndex(where: { $0.id == id }) {
            self.userListeners.remove(at: index).continuation.finish()
            self.consumersChanged(on: Self.userEventsConsumers)
        }
    }

    // MARK: Logging

    nonisolated func log(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ metadata: Logger.Metadata = [:]) {
        self.logger?.log(level: level, message(), metadata: metadata)
    }
}
