// SPDX-License-Identifier: MIT

/// What the server engine is told: the app, how it answers, and its protocol limits.
package struct ServerSettings: Sendable, Hashable {
    /// How a subscription or sign-in with an invalid signature is refused.
    package enum AuthRefusal: Sendable, Hashable {
        /// `pusher:error` without a channel, as Pusher answers.
        case pusherError
        /// `pusher:subscription_error` on the channel, as soketi and Reverb answer.
        case subscriptionError
    }

    package var appKey: String
    package var appSecret: String?
    /// `activity_timeout` announced in `pusher:connection_established`, in seconds; nil leaves it
    /// out and pings nobody.
    package var activityTimeout: Int?
    /// How long a pinged connection has to answer before it is closed with 4201; nil never closes.
    package var pongTimeout: Duration?
    package var answersPings: Bool
    package var sendsConnectionEstablished: Bool
    package var sendsSubscriptionCounts: Bool
    /// Whether `data` goes out as the object itself (when it is one) rather than as a JSON string.
    package var sendsDataAsObject: Bool
    package var answersSignIn: Bool
    package var authRefusal: AuthRefusal
    /// Most members of one presence channel (Pusher: 100).
    package var presenceMembers: Int
    /// Most bytes of one member's `user_info` as JSON (Pusher: 1 KB).
    package var presenceUserInfoBytes: Int
    /// Most characters of a presence `user_id` (Pusher: 128).
    package var presenceUserIDLength: Int
    /// Most bytes of a client event's `data` (Pusher: 10 KB).
    package var clientEventDataBytes: Int

    package init(
        appKey: String, appSecret: String?, activityTimeout: Int? = 120, pongTimeout: Duration? = .seconds(30),
        answersPings: Bool = true, sendsConnectionEstablished: Bool = true, sendsSubscriptionCounts: Bool = false,
        sendsDataAsObject: Bool = false, answersSignIn: Bool = true, authRefusal: AuthRefusal = .pusherError,
        presenceMembers: Int = 100, presenceUserInfoBytes: Int = 1_024, presenceUserIDLength: Int = 128,
        clientEventDataBytes: Int = 10_240
    ) {
        self.appKey = appKey
        self.appSecret = appSecret
        self.activityTimeout = activityTimeout
        self.pongTimeout = pongTimeout
        self.answersPings = answersPings
        self.sendsConnectionEstablished = sendsConnectionEstablished
        self.sendsSubscriptionCounts = sendsSubscriptionCounts
        self.sendsDataAsObject = sendsDataAsObject
        self.answersSignIn = answersSignIn
        self.authRefusal = authRefusal
        self.presenceMembers = presenceMembers
        self.presenceUserInfoBytes = presenceUserInfoBytes
        self.presenceUserIDLength = presenceUserIDLength
        self.clientEventDataBytes = clientEventDataBytes
    }
}
