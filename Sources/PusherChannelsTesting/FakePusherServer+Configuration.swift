// SPDX-License-Identifier: MIT

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
        public var apiLimits: APILimits
        /// Where and how the server sends webhooks; nil (the default) sends none.
        public var webhooks: WebhookTarget?
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
            apiLimits: APILimits = .pusher,
            webhooks: WebhookTarget? = nil
        ) {
            self.appID = appID
            self.apiLimits = apiLimits
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
}
