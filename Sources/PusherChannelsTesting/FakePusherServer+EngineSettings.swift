// SPDX-License-Identifier: MIT

import PusherServerEngine

extension FakePusherServer.Configuration {
    /// What the server engine is told of this configuration.
    var engineSettings: ServerSettings {
        ServerSettings(
            appKey: self.appKey, appSecret: self.appSecret, activityTimeout: self.activityTimeout,
            pongTimeout: self.limits.pongTimeout, answersPings: self.answersPings,
            sendsConnectionEstablished: self.sendsConnectionEstablished,
            sendsSubscriptionCounts: self.sendsSubscriptionCounts, sendsDataAsObject: self.dataEncoding == .object,
            answersSignIn: self.answersSignIn,
            authRefusal: self.authRefusal == .pusherError ? .pusherError : .subscriptionError,
            presenceMembers: self.limits.presenceMembers, presenceUserInfoBytes: self.limits.presenceUserInfoBytes,
            presenceUserIDLength: self.limits.presenceUserIDLength,
            clientEventDataBytes: self.limits.clientEventDataBytes)
    }
}

extension FakePusherServer.Configuration: CustomStringConvertible, CustomReflectable {
    /// The configuration without its secrets: the app secret and the encryption master key show as
    /// `redacted` (also in `dump` and `Mirror`).
    public var description: String {
        "Configuration(appID: \(self.appID), appKey: \(self.appKey), appSecret: "
            + (self.appSecret == nil ? "nil" : "redacted") + ", bindAddress: \(self.bindAddress), port: \(self.port))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "appKey": self.appKey, "appSecret": self.appSecret == nil ? "nil" : "redacted", "appID": self.appID,
                "triggerLimits": self.triggerLimits, "webhooks": self.webhooks as Any, "port": self.port,
                "activityTimeout": self.activityTimeout as Any, "answersPings": self.answersPings,
                "sendsConnectionEstablished": self.sendsConnectionEstablished,
                "sendsSubscriptionCounts": self.sendsSubscriptionCounts, "dataEncoding": self.dataEncoding,
                "encryptionMasterKey": self.encryptionMasterKey == nil ? "nil" : "redacted",
                "answersSignIn": self.answersSignIn, "bindAddress": self.bindAddress,
                "authRefusal": self.authRefusal, "additionalWebhooks": self.additionalWebhooks, "limits": self.limits,
                "recordsTraffic": self.recordsTraffic, "servesAuthEndpoints": self.servesAuthEndpoints,
                "allowedOrigins": self.allowedOrigins,
            ],
            displayStyle: .struct)
    }
}
