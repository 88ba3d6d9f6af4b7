// SPDX-License-Identifier: MIT

import Logging
import PusherCore
import Tracing

/// Everything a ``PusherClient`` knows, behind its one lock: the engine, which makes every
/// protocol decision (its table of calls under way included), and what performs them (the
/// consumer registry, the connections, the timers).
///
/// Every input reaches it through ``PusherClient/withEngine(_:)``, from wherever it happens: a
/// socket read on its event loop, a consumer made or dropped in the caller's task, a timer, a
/// call's answer, a public method. The input goes into the engine and its actions are performed
/// at once, under the same lock: buffers are handed events, notifications published, writes and
/// closes queued on the sockets' event loops, child tasks asked of the run loop. Nothing performed
/// here suspends or calls back into the lock, so one read's events go from the socket thread into
/// the consumers' buffers with no hop in between.
///
/// No user code runs under the lock: log lines, metric changes and span ends are only gathered
/// here (``Observations``) and told by `withEngine` once the lock is released.
struct ClientDriver: Sendable {
    enum RunPhase: Sendable {
        case idle, running, finished
    }

    /// What the timer task sleeps until.
    struct TimerAlarm: Sendable {
        /// The schedule's earliest deadline; nil when nothing is scheduled.
        var deadline: Duration?
    }

    /// The application key: the configuration', or the last `switchEndpoint`'s.
    var key: String
    /// The authorizer: the configuration', or the last `switchEndpoint`'s.
    var authorizer: ChannelAuthorizer?
    let configuration: PusherClientConfiguration
    let clock: ClockAdapter
    let logger: Logger?
    /// Work for the run loop: child tasks to start, the end of the run.
    let commands: AsyncStream<Command>.Continuation
    /// Closed while a consumer with the `pauseReading` policy is over its limits: sockets pause
    /// reading at it (flow control, see ``BufferingPolicy``).
    let flowGate: FlowGate
    /// The endpoints of the configuration with their URLs, or why the configuration cannot form one or are
    /// invalid (checked before every connect).
    let configuredEndpoints: Result<EndpointRotation<ConnectionEndpoint>, PusherError>
    /// The endpoints (the configuration', or those of the last `switchEndpoint`) and which one the next
    /// attempt goes to; nil when the configuration are invalid.
    var endpointRotation: EndpointRotation<ConnectionEndpoint>?
    var runPhase = RunPhase.idle
    /// Every protocol decision is the engine's; the driver performs its actions.
    var engine: ClientEngine
    /// Every consumer, of every kind.
    var registry = ConsumerRegistry()
    var connections: [Generation: ConnectionHandle] = [:]
    /// Every timer the engine asked for. One child task of `run()` sleeps until the earliest
    /// deadline (see `ClientDriver+Timers.swift`).
    var timers = TimerSchedule()
    /// What the timer task sleeps until: the schedule's earliest deadline.
    let timerAlarm = WaitableState(TimerAlarm())
    /// The deadline last handed to the timer task.
    var armedDeadline: Duration?
    /// How many child tasks the client has started (for the package's tests of what a subscribe costs).
    var childTasksStarted = 0
    /// Calls of `waitForEarliestDeadline` waiting for the schedule's earliest deadline to be `deadline`.
    var earliestDeadlineWaiters: [(deadline: Duration?, signal: WaitableState<Bool>)] = []
    var consumerWaiters: [(channel: String, count: Int, signal: WaitableState<Bool>)] = []
    /// Reused across batches so that the hot path allocates no action list per read.
    var actionBuffer: [ClientEngine.Action] = []
    /// Consumers with staged events, reused across batches.
    var stagedBuffer: [Consumer<ChannelEvent>] = []
    /// The bookkeeping of the swift-metrics instruments; nil (nothing recorded) without a metrics
    /// backend.
    var metrics: ClientMetrics?
    /// Log lines and span ends not yet told (see ``Observations``).
    var observed: [Observations.Entry] = []
    /// Observations taken out of the lock and not yet told (see `PusherClient.observationsTold()`).
    var tellsUnderway = 0
    /// The tracing span of each connection attempt, until it connects or fails.
    var connectionSpans: [Generation: any Span] = [:]
    /// Pace the log lines about events dropped under `dropOldest` and `dropNewest`, about consumers
    /// failed as too slow, and about reading paused.
    var droppedEventsLog = LogPacer()
    var failedConsumersLog = LogPacer()
    var pausedReadingLog = LogPacer()
    /// Calls of `triggerWaitingForRoom` waiting for the client-event queue to have room.
    var clientEventRoomWaiters: [WaitableState<Bool>] = []
    /// The last connection state published, with the endpoint of the latest attempt then (the
    /// first element of a new state consumer), and the last user state.
    var publishedState = ConnectionState.initialized
    var publishedEndpoint: PusherEndpoint?
    var publishedUser = UserState.signedOut

    init(
        key: String, configuration: PusherClientConfiguration, clock: ClockAdapter, logger: Logger?,
        recordsMetrics: Bool,
        commands: AsyncStream<Command>.Continuation
    ) {
        self.key = key
        self.authorizer = configuration.authorizer
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.commands = commands
        self.flowGate = FlowGate()
        let configuredEndpoints = Self.endpointRotation(configuration: configuration, key: key)
        self.configuredEndpoints = configuredEndpoints
        self.endpointRotation = try? configuredEndpoints.get()
        self.engine = ClientEngine(
            configuration: ClientEngine.Configuration(
                connection: configuration.stateMachineConfiguration,
                hasAuthorizer: configuration.authorizer != nil,
                encryptionAvailable: SecretBox.isAvailable,
                clientEventRateLimit: configuration.clientEventRateLimit,
                clientEventQueueLimit: configuration.clientEventQueueLimit,
                maximumPresenceMembers: configuration.maximumPresenceMembers,
                maximumPresenceBytes: configuration.maximumPresenceBytes,
                maximumHeldEncryptedEvents: configuration.maximumHeldEncryptedEvents,
                maximumHeldEncryptedBytes: configuration.maximumHeldEncryptedBytes,
                keyReloadInterval: configuration.keyReloadInterval,
                authorizationTimeout: configuration.authorizationTimeout,
                open: { message, key in EncryptedPayload.open(message, key: key) },
                key: { secret in EncryptedPayload.key(fromSharedSecret: secret) },
                localAuthorization: configuration.authorizer?.local,
                subscriptionRetry: configuration.subscriptionRetry,
                randomSeed: .random(in: 0...UInt64.max)
            )
        )
        self.engine.endpointsChanged(count: 1 + configuration.fallbackEndpoints.count)
        self.metrics =
            recordsMetrics ? ClientMetrics(includesChannelLabel: configuration.metrics.includesChannelLabel) : nil
    }

    /// The endpoint of the latest connection attempt (see `PusherClient.currentEndpoint`).
    var currentEndpoint: PusherEndpoint {
        self.endpointRotation?.current.endpoint ?? self.configuration.endpoint
    }

    /// How many consumers are registered for events of `channel` (or of the user's events).
    func consumerCount(on channel: String) -> Int {
        channel == ClientEngine.userEventsChannel
            ? self.engine.userConsumerCount : self.engine.consumerCount(on: channel)
    }

    /// Gathers a log line, told once the lock is released (nothing without a logger).
    mutating func log(
        _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ metadata: Logger.Metadata = [:]
    ) {
        guard self.logger != nil else { return }
        self.observed.append(.log(level, message(), metadata))
    }

    /// Takes what is to be told to the logger, the metrics backend and the tracer (nil when
    /// nothing), in the locked section where it was gathered.
    mutating func takeObservations() -> Observations? {
        var observations = Observations()
        if !self.observed.isEmpty {
            observations.list = self.observed
            self.observed = []
        }
        self.metrics?.take(into: &observations)
        return observations.isEmpty ? nil : observations
    }
}
