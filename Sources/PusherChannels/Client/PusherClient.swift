// SPDX-License-Identifier: MIT

import Logging
import NIOConcurrencyHelpers
import PusherCore
import ServiceLifecycle
import Tracing

/// A client for the Pusher Channels protocol (version 7), for Pusher and every server that speaks it.
///
/// The client's background work (the socket, timers, reconnection) happens only while ``run()``
/// runs: call it in a task group, hand the client to a swift-service-lifecycle `ServiceGroup`, or
/// use ``withPusherClient(key:configuration:logger:isolation:_:)``, which runs it around a closure.
///
/// ```swift
/// let client = PusherClient(key: "app-key", configuration: .init(cluster: "eu"))
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
    /// The application key: the one the client was made with, or the one of the last
    /// ``switchEndpoint(to:fallbacks:key:authorizer:)`` that gave one.
    public nonisolated var key: String { self.withEngine { $0.key } }
    /// What the client was made with.
    public nonisolated let configuration: PusherClientConfiguration

    /// The value of the `client` query parameter the server sees.
    package static let clientName = "swift-pusher-channels"
    /// This library's version, sent as the `version` query parameter.
    public static let version = "0.1.0"

    nonisolated let clock: ClockAdapter
    nonisolated let logger: Logger?
    /// Tells the metrics backend what the driver's bookkeeping decided; nil without a backend.
    nonisolated let metricsRecorder: MetricsRecorder?
    nonisolated let transport: any PusherTransport
    nonisolated let commands: AsyncStream<Command>.Continuation
    private let commandStream: AsyncStream<Command>
    /// Everything the client knows, behind one lock (see ``ClientDriver``); entered only through
    /// ``withEngine(_:)``.
    private nonisolated let driver: NIOLockedValueBox<ClientDriver>
    /// The driver's timer alarm, which the timer task waits at outside the lock.
    nonisolated let timerAlarm: WaitableState<ClientDriver.TimerAlarm>
    /// The driver's flow gate (see ``BufferingPolicy``).
    nonisolated let flowGate: FlowGate

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - key: The application key.
    ///   - configuration: Where to connect and how to behave.
    ///   - clock: The clock every timer runs on (backoff, activity, pong, handshake and authorization
    ///     timeouts): the continuous clock by default, a virtual clock in tests.
    ///   - logger: Where to log. Without one the client logs nothing. Event payloads and secrets are
    ///     logged at `trace` level at most. Log lines (like metrics and spans) are written after the
    ///     client releases its state lock, so a log handler may call back into the client; a line
    ///     can therefore come just after the change it reports is observable.
    ///   - transport: How to reach the server: nil (the default) opens a WebSocket to the
    ///     configuration's endpoint with its TLS and proxy settings; `FakePusherServer.clientTransport`
    ///     (`PusherChannelsTesting`) connects in memory to a fake server, for tests. Whatever the
    ///     transport, the configuration's timeouts, backoff, buffering and limits apply.
    public init<C: Clock>(
        key: String, configuration: PusherClientConfiguration = .init(), clock: C = ContinuousClock(),
        logger: Logger? = nil, transport: PusherClientTransport? = nil
    ) where C.Duration == Duration {
        self.init(
            key: key, configuration: configuration, clock: clock, logger: logger,
            transport: transport?.base
                ?? NIOWebSocketTransport(tlsConfiguration: configuration.tlsConfiguration, proxy: configuration.proxy))
    }

    /// Creates a client that connects through `transport` (an in-memory one in tests).
    package init<C: Clock>(
        key: String, configuration: PusherClientConfiguration, clock: C, logger: Logger?, transport: any PusherTransport
    )
    where C.Duration == Duration {
        self.configuration = configuration
        self.clock = ClockAdapter(clock)
        self.logger = logger
        self.transport = transport
        (self.commandStream, self.commands) = AsyncStream.makeStream()
        // The metrics backend's factory makes the fixed instruments here, outside any lock.
        self.metricsRecorder = MetricsRecorder(metrics: configuration.metrics)
        let driver = ClientDriver(
            key: key, configuration: configuration, clock: self.clock, logger: logger,
            recordsMetrics: self.metricsRecorder != nil, commands: self.commands)
        self.timerAlarm = driver.timerAlarm
        self.flowGate = driver.flowGate
        self.driver = NIOLockedValueBox(driver)
    }

    /// The one way into the client's state: runs `body` with the driver under its lock. Called from
    /// wherever an input happens (a socket's event loop, a consumer's task, a timer, a call's
    /// answer); `body` never suspends, and nothing it performs comes back into the lock.
    ///
    /// What `body` gathered for the logger, the metrics backend and the tracer is taken out in the
    /// same locked section and told after the unlock (``tell(_:)``): user code never runs locked.
    nonisolated func withEngine<Result, Failure: Error>(
        _ body: (inout ClientDriver) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // NIOLockedValueBox rethrows untyped: carry a typed error out by hand.
        typealias Outcome = (result: Swift.Result<Result, Failure>, observations: Observations?)
        let outcome: Outcome = self.driver.withLockedValue { driver in
            let result: Swift.Result<Result, Failure>
            do throws(Failure) {
                result = .success(try body(&driver))
            } catch {
                result = .failure(error)
            }
            let observations = driver.takeObservations()
            if observations != nil { driver.tellsUnderway += 1 }
            return (result, observations)
        }
        if let observations = outcome.observations { self.tell(observations) }
        return try outcome.result.get()
    }

    // MARK: Observing

    /// The connection state now.
    public var state: ConnectionState { self.withEngine { $0.engine.state } }

    /// Channels that currently have consumers, whether or not the server has confirmed them yet.
    public var channels: [String] { self.withEngine { $0.engine.channelNames } }

    /// How many consumers are registered for events of `channel` now (the package's own tests use it
    /// to check that consumers end). ``userEventsConsumers`` counts the consumers of
    /// ``userEvents(named:buffering:)``.
    package func consumerCount(on channel: String) -> Int {
        self.withEngine { $0.consumerCount(on: channel) }
    }

    /// Whether a call of ``triggerWaitingForRoom(_:on:data:)`` waits for room (for the package's tests).
    package var isWaitingForClientEventRoom: Bool { self.withEngine { !$0.clientEventRoomWaiters.isEmpty } }

    /// Whether a socket's reader waits for a consumer to catch up (for the package's tests of flow control).
    package var isReadingPaused: Bool { self.withEngine { $0.isReadingPaused } }

    /// The name ``consumerCount(on:)`` and ``waitForConsumers(on:count:)`` take for the consumers of
    /// ``userEvents(named:buffering:)`` (not a channel).
    package static let userEventsConsumers = ClientEngine.userEventsChannel

    /// Suspends until exactly `count` consumers are registered for events of `channel` (or the task
    /// is cancelled). For the package's own tests of consumers made in other tasks.
    package func waitForConsumers(on channel: String, count: Int = 1) async {
        let signal = WaitableState(false)
        let waits = self.withEngine { driver in
            guard driver.consumerCount(on: channel) != count else { return false }
            driver.consumerWaiters.append((channel, count, signal))
            return true
        }
        guard waits else { return }
        await signal.waitUntilFired()
        // A cancelled wait leaves nothing behind.
        self.withEngine { $0.consumerWaiters.removeAll { $0.signal === signal } }
    }

    /// Connection states, starting with the current one.
    public nonisolated var connectionStates: PusherSequence<ConnectionState> {
        PusherSequence { [self] in
            self.observe(ConsumerRegistry.Observer.states) { $0.publishedState }
        }
    }

    /// Errors: connection closes and transport failures (also visible in the state), server
    /// `pusher:error` messages, malformed frames, failed subscriptions.
    public nonisolated var errors: PusherSequence<PusherError> {
        PusherSequence { [self] in self.observe(ConsumerRegistry.Observer.errors) }
    }

    /// Subscription confirmations and refusals, for one channel or (with `nil`) for all.
    public nonisolated func subscriptionEvents(on channel: String? = nil) -> PusherSequence<SubscriptionEvent> {
        PusherSequence { [self] in
            self.observe { ConsumerRegistry.Observer.subscriptions(channel: channel, $0) }
        }
    }

    /// The number of connections subscribed to `channel`, each time the server reports it
    /// (`pusher_internal:subscription_count`; it must be enabled for the app, and presence channels
    /// have members instead). Counts of 0 are reported too. Does not subscribe by itself.
    public nonisolated func subscriptionCounts(on channel: String) -> PusherSequence<Int> {
        PusherSequence { [self] in
            self.observe { ConsumerRegistry.Observer.counts(channel: channel, $0) }
        }
    }

    /// Events of private-encrypted channels that could not be delivered (malformed payloads, keys
    /// that do not open them even after a reload, failed reloads), for one channel or (with `nil`)
    /// for all. The other events of the channel keep flowing. Never carries keys or plaintext.
    public nonisolated func decryptionFailures(on channel: String? = nil) -> PusherSequence<DecryptionFailure> {
        PusherSequence { [self] in
            self.observe { ConsumerRegistry.Observer.decryptionFailures(channel: channel, $0) }
        }
    }

    // MARK: Control

    /// Connects, if not connected or connecting. After a failure or ``disconnect()`` this starts
    /// afresh; while waiting to reconnect it skips the rest of the delay.
    ///
    /// A configuration whose settings cannot form a connection (an invalid key, host, cluster, port or path) or would
    /// crash or loop the client (a zero or over-a-year timeout or delay, a NaN backoff factor, a
    /// `maximumMessageSize` outside 1…2³²−1; see ``PusherClientConfiguration``) make the state `failed`
    /// with an `invalidConfiguration` error at once, without retries.
    public func connect() {
        self.withEngine { $0.connect() }
    }

    /// Closes the connection (normal close) and cancels any pending reconnection, in every state.
    /// Subscriptions are kept and made again on the next ``connect()``.
    public func disconnect() {
        self.withEngine { driver in driver.perform(driver.engine.disconnect(at: driver.clock.now)) }
    }

    /// Checks the connection now: sends `pusher:ping` at once, and if nothing arrives within the pong
    /// timeout, drops the socket and reconnects. Call it when the network changed (for example from
    /// an `NWPathMonitor` update) or the app returns to the foreground, instead of waiting for the
    /// activity timeout to notice a dead socket.
    public func checkConnection() {
        self.withEngine { driver in driver.perform(driver.engine.checkConnection(at: driver.clock.now)) }
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
        let starts = self.withEngine { driver in
            guard case .idle = driver.runPhase else { return false }
            driver.runPhase = .running
            return true
        }
        guard starts else {
            throw PusherError(.alreadyRunning, "run() may be called only once per client")
        }
        self.log(.debug, "client running", ["pusher.host": "\(self.configuration.endpoint.host)"])
        await withGracefulShutdownHandler {
            await self.runLoop()
        } onGracefulShutdown: {
            self.commands.yield(.shutdown)
        }
        // When the run was cancelled rather than shut down, the sockets are already gone: only the
        // final state remains to be told.
        self.withEngine { $0.runEnded() }
        self.log(.debug, "client stopped")
    }

    private func runLoop() async {
        await withDiscardingTaskGroup { group in
            // The one task that runs every timer.
            self.countChildTask()
            group.addTask { await self.runTimers() }
            if self.configuration.connectsAutomatically { self.connect() }
            loop: for await command in self.commandStream {
                switch command {
                case .startConnection(let generation, let url, let endpoint, let headersAbandoned):
                    self.countChildTask()
                    group.addTask {
                        await self.runConnection(
                            generation: generation, url: url, endpoint: endpoint, headersAbandoned: headersAbandoned)
                    }
                case .authorize(let channel, let socketID, let cancel):
                    self.countChildTask()
                    group.addTask { await self.runAuthorization(channel: channel, socketID: socketID, cancel: cancel) }
                case .reloadKey(let channel, let socketID, let cancel):
                    self.countChildTask()
                    group.addTask {
                        await self.runAuthorization(
                            channel: channel, socketID: socketID, isKeyReload: true, cancel: cancel)
                    }
                case .authenticateUser(let socketID, let cancel):
                    self.countChildTask()
                    group.addTask { await self.runUserAuthentication(socketID: socketID, cancel: cancel) }
                case .wake(let wake):
                    wake()
                case .shutdown:
                    self.withEngine { driver in driver.perform(driver.engine.shutdown(at: driver.clock.now)) }
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
