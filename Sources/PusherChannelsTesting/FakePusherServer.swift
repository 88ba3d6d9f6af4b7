// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherServerEngine

/// An in-process Pusher Channels server (protocol 7) on a real loopback WebSocket, for tests and
/// offline examples.
///
/// It accepts connections (each gets a socket id and `pusher:connection_established`), answers
/// `pusher:subscribe`, `pusher:unsubscribe` and `pusher:ping`, and lets a test act as the server:
/// trigger events, send `pusher:error`, close a connection with any code, drop it without a close
/// frame, or refuse new connections. It records what every client sent (see
/// ``Configuration/recordsTraffic``), and ``waitUntil(_:)`` suspends until its state matches a
/// condition, so tests never sleep.
///
/// Its protocol behaviour (connections, channels, presence, client events, webhooks in pairs,
/// limits, activity timeouts) is one pure engine that `pusher-channels serve` runs too; this actor
/// does the I/O, the recording and the scripting around it.
///
/// On the same port it serves the Channels HTTP API (`/apps/APP_ID/…`, checked and signed as Pusher
/// checks it; see ``appID`` and ``Configuration/triggerLimits``) and can send signed webhooks to a
/// receiver (``Configuration/webhooks``), so code that publishes from a server can be tested offline.
///
/// ```swift
/// try await FakePusherServer.withRunning { server in
///     let client = PusherClient(key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
///     try await withRunningClient(client) { client in
///         var events = client.events(on: "prices").makeAsyncIterator()
///         async let first = events.next()
///         await server.waitForSubscribers(of: "prices")
///         await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
///         #expect(try await first?.data == #"{"price":1}"#)
///     }
/// }
/// ```
public actor FakePusherServer {
    public nonisolated let configuration: Configuration
    /// The loopback port the server listens on: ``Configuration/port``, or the free port the
    /// system chose when that is 0; 0 for a server run with ``withInMemory(configuration:isolation:_:)``,
    /// which listens on none.
    public nonisolated let port: Int
    public nonisolated let host = "127.0.0.1"
    public nonisolated var appKey: String { self.configuration.appKey }

    nonisolated let refusing: NIOLockedValueBox<Bool>
    nonisolated let refusedCount: NIOLockedValueBox<Int>
    /// The server's behaviour: connections, channels, presence, client events, limits, timeouts.
    var engine: ServerEngine
    /// Where the frames of each open connection go; dropped when it closes.
    var sinks: [Int: ConnectionSink] = [:]
    /// What tests read (``Configuration/recordsTraffic``): every connection, open or closed (the
    /// oldest closed ones forgotten past ``Limits/recordedConnections``), with what it sent (up to
    /// ``Limits/recordedBytes``). Empty when not recording.
    var records: [Int: Connection] = [:]
    /// Closed connections still recorded, oldest first.
    var closedRecords: [Int] = []
    var recordedBytes = 0
    /// The close code each open connection's client sent, until the connection ends (for the log).
    var clientCloseCodes: [Int: Int] = [:]
    /// When the server started, the origin of the engine's time.
    let started = ContinuousClock.now
    var waiters: [Waiter] = []
    var authRequests: [AuthRequest] = []
    var authEndpointBehavior = AuthEndpointBehavior.sign
    var masterKey: String?
    /// Where each new target's queue goes to get a delivery task of its own.
    let webhookDeliverers: AsyncStream<WebhookQueue>.Continuation
    /// The queue of each target webhooks go to (created at its first webhook).
    var webhookQueues: [WebhookTarget: AsyncStream<[UInt8]>.Continuation] = [:]
    /// Bytes of webhook bodies queued or being delivered (bounded by ``Limits/webhookBytes``).
    var webhookQueuedBytes = 0
    /// Where webhooks go now, with its key and secret filled in; nil sends none.
    var webhookTarget: WebhookTarget?
    /// ``Configuration/additionalWebhooks`` with their keys and secrets filled in.
    let additionalWebhookTargets: [WebhookTarget]
    var webhooksDelivered = 0
    var webhooksFailed = 0

    init(
        configuration: Configuration, port: Int, refusing: NIOLockedValueBox<Bool>,
        refusedCount: NIOLockedValueBox<Int>, webhookDeliverers: AsyncStream<WebhookQueue>.Continuation,
        webhookTarget: WebhookTarget?, additionalWebhookTargets: [WebhookTarget]
    ) {
        self.configuration = configuration
        self.webhookDeliverers = webhookDeliverers
        self.webhookTarget = webhookTarget
        self.additionalWebhookTargets = additionalWebhookTargets
        self.port = port
        self.refusing = refusing
        self.refusedCount = refusedCount
        self.engine = ServerEngine(settings: configuration.engineSettings)
        self.masterKey = configuration.encryptionMasterKey
    }

    /// A client configuration that connects to this server on loopback: plain `ws://`, or in the TLS mode
    /// `wss://` trusting the test CA of ``TestCertificates``.
    public nonisolated func clientConfiguration() -> PusherClientConfiguration {
        // An in-memory server (port 0) has no port: the default one stands in (in memory the host
        // and port are not used).
        var options = PusherClientConfiguration(
            host: self.host, port: self.port == 0 ? nil : self.port, useTLS: self.configuration.tls != nil)
        if self.configuration.tls != nil {
            // Cannot fail: `trustCertificateAuthorities(pem:)` throws only for text that holds no
            // valid certificate, and the CA is a committed constant that `TLSTests` parse on every run.
            try! options.trustCertificateAuthorities(pem: TestCertificates.certificateAuthorityPEM)
        }
        return options
    }
}
