// SPDX-License-Identifier: MIT

import Logging
import PusherChannels
import PusherServerEngine

// The server's value types: its configuration, and what it reports (connections, messages, snapshots,
// auth requests).
extension FakePusherServer {
    public struct Configuration: Sendable {
        /// The app key the server accepts; other keys are closed with 4001.
        public var appKey: String
        /// The app secret. With one, private and presence subscriptions are accepted only with a
        /// valid signature (otherwise `pusher:error` "Invalid signature…", as Pusher answers);
        /// without one they are refused with `pusher:subscription_error`, and every HTTP API request
        /// gets 401 (the API has nothing to check signatures with).
        public var appSecret: String?
        /// The app id of the HTTP API's paths (`/apps/APP_ID/events` …); other ids get 404.
        public var appID: String
        /// The HTTP API's limits: more channels or batch events get 400, more data 413.
        public var triggerLimits: TriggerLimits
        /// Where and how the server sends webhooks; nil (the default) sends none until
        /// ``FakePusherServer/setWebhookTarget(_:)`` sets a target.
        public var webhooks: WebhookTarget?
        /// The port to listen on (on ``bindAddress``); 0 (the default) takes any free port, which
        /// ``FakePusherServer/port`` then tells.
        public var port: Int
        /// `activity_timeout` announced in `pusher:connection_established`; `nil` leaves it out.
        public var activityTimeout: Int?
        /// Whether `pusher:ping` is answered with `pusher:pong`.
        public var answersPings: Bool
        /// Whether `pusher:connection_established` is sent after the upgrade (off holds clients in
        /// the handshake).
        public var sendsConnectionEstablished: Bool
        /// Whether `pusher_internal:subscription_count` is sent to a channel's subscribers when the
        /// count changes (not on presence channels, as on Pusher).
        public var sendsSubscriptionCounts: Bool
        /// How `data` is sent, for events and for the server's own messages: as a JSON string
        /// holding the data (what Pusher does) or, when the data is a JSON object, as the object
        /// itself (what some other servers do).
        public var dataEncoding: DataEncoding
        /// The app's encryption master key (base64 of 32 bytes). With one, events triggered on
        /// private-encrypted channels are sealed with the channel's shared secret, and the auth
        /// endpoint returns `shared_secret`. ``rotateEncryptionMasterKey(_:)`` changes it.
        public var encryptionMasterKey: String?
        /// Whether `pusher:signin` is checked and answered (off lets a test answer by hand with
        /// ``send(raw:to:)``).
        public var answersSignIn: Bool
        /// With a certificate, the server speaks TLS only (`wss://`, and `https://` for the auth
        /// endpoints) and presents that test certificate, issued by the test CA of
        /// ``TestCertificates``; nil (the default) serves plain `ws://` and `http://`.
        public var tls: TestCertificates.Server?
        /// The address the server listens on (`127.0.0.1` by default; `0.0.0.0` for every interface).
        /// ``FakePusherServer/clientConfiguration()`` still connects over loopback.
        public var bindAddress: String = "127.0.0.1"
        /// How a subscription or sign-in with an invalid signature is refused.
        public var authRefusal: AuthRefusal = .pusherError
        /// Receivers that get every webhook too, after ``webhooks`` (signed with their own key and secret).
        public var additionalWebhooks: [WebhookTarget] = []
        /// The bounds of connections, frames, requests, handshakes, queues and presence.
        public var limits: Limits = Limits()
        /// Whether the server keeps what tests read: every connection, closed ones too, and every
        /// message clients sent (``Snapshot/connections``, ``waitForMessages(named:count:)``), within
        /// ``Limits/recordedConnections`` and ``Limits/recordedBytes``. Off (as `serve` runs), the
        /// snapshot lists the open connections only, without their messages, and nothing is kept
        /// of a connection once it closes.
        public var recordsTraffic = true
        /// Whether `POST /pusher/auth` and `POST /pusher/user-auth` answer (see ``authEndpoint``).
        /// They sign whatever they are asked for with the app secret: on for tests, off by default
        /// in `serve`.
        public var servesAuthEndpoints = true
        /// The `Origin` headers a WebSocket upgrade may carry (`https://app.example.com`, compared
        /// without case); an upgrade with another origin gets 403. Empty (the default) accepts any
        /// origin; a request without `Origin` (not from a browser) is always accepted.
        public var allowedOrigins: [String] = []
        /// Where the server logs: connections opened and closed, refusals with their reason, failed
        /// webhook deliveries (`info`); every frame (`debug`). Nothing without one.
        public var logger: Logger?

        public enum DataEncoding: Sendable {
            case string
            case object
        }

        public init(
            appKey: String = "fake-app-key",
            appSecret: String? = nil,
            activityTimeout: Int? = 120,
            answersPings: Bool = true,
            sendsConnectionEstablished: Bool = true,
            sendsSubscriptionCounts: Bool = false,
            dataEncoding: DataEncoding = .string,
            encryptionMasterKey: String? = nil,
            answersSignIn: Bool = true,
            tls: TestCertificates.Server? = nil,
            appID: String = "1234",
            triggerLimits: TriggerLimits = .pusher,
            webhooks: WebhookTarget? = nil,
            port: Int = 0
        ) {
            self.port = port
            self.appID = appID
            self.triggerLimits = triggerLimits
            self.webhooks = webhooks
            self.tls = tls
            self.answersSignIn = answersSignIn
            self.encryptionMasterKey = encryptionMasterKey
            self.sendsSubscriptionCounts = sendsSubscriptionCounts
            self.appKey = appKey
            self.appSecret = appSecret
            self.activityTimeout = activityTimeout
            self.answersPings = answersPings
            self.sendsConnectionEstablished = sendsConnectionEstablished
            self.dataEncoding = dataEncoding
        }
    }

    /// One client connection, as the server sees it.
    public struct Connection: Sendable, Identifiable {
        public let id: Int
        public let socketID: String
        /// The request path and query the client opened, e.g. `/app/key?protocol=7&client=…`.
        public let requestURI: String
        /// The headers of the WebSocket upgrade request, names lowercased (for an in-memory
        /// connection, those the client added: `PusherClientConfiguration.headers` and its provider's).
        public var requestHeaders: [String: String] = [:]
        public var isOpen: Bool
        /// The channels it is subscribed to (none once closed).
        public var subscriptions: Set<String>
        public var received: [ReceivedMessage]
        /// The close code the client sent, if it closed the connection with a close frame.
        public var clientCloseCode: Int?
        /// The user id the connection signed in as (`pusher:signin`), if it did.
        public var userID: String?
        /// The signed-in user's watchlist.
        public var watchlist: [String] = []
    }

    /// One message a client sent.
    public struct ReceivedMessage: Sendable, Hashable {
        public var text: String
        /// The parsed envelope, nil when the text was not a valid message.
        package var message: PusherMessage?
        /// The event name, nil when the text was not a valid message.
        public var event: String? { self.message?.event }
        /// The channel named in the envelope, if any.
        public var channel: String? { self.message?.channel }
        /// The `data` field as text (an object's exact JSON, a string unescaped once), if any.
        public var data: String? { self.message?.data }
    }

    /// A copy of the server's state, for ``waitUntil(_:)`` conditions and assertions.
    public struct Snapshot: Sendable {
        public var connections: [Connection]
        /// Upgrade requests refused while ``refuseConnections(_:)`` was on.
        public var refusedConnections: Int
        /// Requests the auth endpoint received, in order.
        public var authRequests: [AuthRequest]
        /// Webhooks the receiver answered with a 2xx status (see ``Configuration/webhooks``).
        public var webhooksDelivered: Int
        /// Webhooks that got another status, no answer in time, or a transport error.
        public var webhooksFailed: Int

        public var openConnections: [Connection] { self.connections.filter(\.isOpen) }

        public func subscribers(of channel: String) -> Int {
            self.connections.filter { $0.isOpen && $0.subscriptions.contains(channel) }.count
        }

        /// Every message clients sent with this event name, in order.
        public func messages(named event: String) -> [ReceivedMessage] {
            self.connections.flatMap(\.received).filter { $0.event == event }
        }
    }

    /// One request to the auth endpoint (`POST /pusher/auth`).
    public struct AuthRequest: Sendable, Hashable {
        public var method: String
        /// Header names are lowercased.
        public var headers: [String: String]
        /// The decoded form fields (`socket_id`, `channel_name`, extra parameters).
        public var fields: [String: String]
        /// The body exactly as sent.
        public var body: String
    }

    /// How the auth endpoint answers.
    public enum AuthEndpointBehavior: Sendable, Hashable {
        /// Sign with the app secret, as a well-behaved backend does (presence channels get
        /// `{"user_id":"user-<socket id>"}` as channel_data).
        case sign
        /// Answer with this status and body.
        case respond(status: Int, body: String)
    }

    /// The limits the fake server's HTTP API enforces; `nil` disables one.
    public struct TriggerLimits: Sendable, Hashable {
        /// Most channels in one trigger (more: 400).
        public var channelsPerTrigger: Int?
        /// Most events in one batch trigger (more: 400).
        public var eventsPerBatch: Int?
        /// Most bytes of an event's `data` string, counted as UTF-8 (more: 413).
        public var dataBytes: Int?

        /// Pusher's limits: 100 channels per trigger, 10 events per batch, 10,240 bytes of data.
        public static let pusher = TriggerLimits(channelsPerTrigger: 100, eventsPerBatch: 10, dataBytes: 10_240)

        /// No limits, like some self-hosted servers.
        public static let none = TriggerLimits(channelsPerTrigger: nil, eventsPerBatch: nil, dataBytes: nil)

        /// Limits with the given values.
        ///
        /// - Parameters:
        ///   - channelsPerTrigger: Most channels in one trigger, or nil for no limit.
        ///   - eventsPerBatch: Most events in one batch trigger, or nil for no limit.
        ///   - dataBytes: Most UTF-8 bytes of an event's data, or nil for no limit.
        public init(channelsPerTrigger: Int?, eventsPerBatch: Int?, dataBytes: Int?) {
            self.channelsPerTrigger = channelsPerTrigger
            self.eventsPerBatch = eventsPerBatch
            self.dataBytes = dataBytes
        }
    }

    /// Where the fake server POSTs its webhooks, and the key and secret it signs them with.
    ///
    /// Each webhook carries `X-Pusher-Key: key` and `X-Pusher-Signature`, the lowercase hex
    /// HMAC-SHA256 of the raw body with `secret`, as Pusher sends them. Without a key or secret the
    /// server's own ``Configuration/appKey`` and ``Configuration/appSecret`` are used, as Pusher
    /// signs webhooks with the app's credentials. The secret never appears in `description`,
    /// `dump` or `Mirror`.
    public struct WebhookTarget: Sendable, Hashable {
        /// The receiver's URL, e.g. `http://127.0.0.1:8080/pusher/webhooks`.
        public var url: String
        /// The app key sent as `X-Pusher-Key`; nil sends the server's ``Configuration/appKey``.
        public var key: String?
        /// The secret the body is signed with (`X-Pusher-Signature`); nil signs with the server's
        /// ``Configuration/appSecret``.
        public var secret: String?

        /// A webhook receiver.
        ///
        /// - Parameters:
        ///   - url: The receiver's URL (`http://` or `https://`).
        ///   - key: The key sent as `X-Pusher-Key`; nil (the default) sends the server's app key.
        ///   - secret: The secret the body is signed with; nil (the default) signs with the
        ///     server's app secret.
        public init(url: String, key: String? = nil, secret: String? = nil) {
            self.url = url
            self.key = key
            self.secret = secret
        }
    }
}

extension FakePusherServer {
    /// How the server refuses a subscription or a sign-in whose signature does not match the app
    /// secret.
    public enum AuthRefusal: Sendable, Hashable {
        /// As Pusher answers: `pusher:error` "Invalid signature: …" (no code) for a subscription, and
        /// the same with code 4009 for a sign-in.
        case pusherError
        /// As soketi and Laravel Reverb answer a subscription: `pusher:subscription_error` on that
        /// channel with `{"type":"AuthError","error":…,"status":401}`; a sign-in still gets
        /// `pusher:error` with code 4009. The connection stays open either way.
        case subscriptionError
    }
}
