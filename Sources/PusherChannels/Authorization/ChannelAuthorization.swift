// SPDX-License-Identifier: MIT

import PusherCore

/// What a channel authorization gives the client: the `auth` signature (`key:hexsig`), the exact
/// `channel_data` string for presence channels, and the `shared_secret` for encrypted channels.
public struct ChannelAuthorization: Sendable, Hashable {
    public var auth: String
    /// Sent byte for byte as given.
    public var channelData: String?
    /// Base64 of the channel's 32-byte key (private-encrypted channels only).
    public var sharedSecret: String?

    public init(auth: String, channelData: String? = nil, sharedSecret: String? = nil) {
        self.auth = auth
        self.channelData = channelData
        self.sharedSecret = sharedSecret
    }
}

/// The signatures of the Pusher protocol: HMAC-SHA256 of the documented string, keyed with the app
/// secret, as `key:lowercase-hex`.
///
/// > Important: Sign only where the secret is safe: on your own servers. Never ship an app secret
/// > inside an app that runs on users' devices; there, authorize through your backend instead.
public enum PusherSignature {
    /// The authorization of a private, private-encrypted or presence channel. For presence channels
    /// `channelData` is the exact JSON string that is signed and sent.
    public static func channelAuthorization(
        key: String,
        secret: String,
        socketID: String,
        channel: String,
        channelData: String? = nil
    ) -> ChannelAuthorization {
        var message = "\(socketID):\(channel)"
        if let channelData { message += ":\(channelData)" }
        return ChannelAuthorization(auth: "\(key):\(HMACSHA256.hex(key: secret, message: message))", channelData: channelData)
    }

    /// The `auth` of a user sign-in: the signature of `socketID::user::userData`.
    public static func userAuthentication(key: String, secret: String, socketID: String, userData: String) -> String {
        "\(key):\(HMACSHA256.hex(key: secret, message: "\(socketID)::user::\(userData)"))"
    }
}

/// An authorization you obtained yourself for one connection, passed when subscribing
/// (``PusherClient/events(on:named:authorization:buffering:)``, ``PusherClient/presence(on:authorization:)``).
///
/// A channel authorization signs the socket id, so it is good for that connection only. The client
/// uses it once, for the subscription on `socketID`; it is never resent. When the connection has
/// another socket id (it was made for an older connection, or the client reconnected later), the
/// client asks ``PusherClientOptions/authorizer`` instead, or, without one, fails the subscription
/// with `authorizationRequired`. Not accepted for private-encrypted channels, whose shared secret
/// must be reloadable through an authorizer.
public struct ProvidedAuthorization: Sendable, Hashable {
    /// The socket id the authorization was made for (``ConnectionState/socketID``).
    public var socketID: String
    public var authorization: ChannelAuthorization

    public init(_ authorization: ChannelAuthorization, socketID: String) {
        self.authorization = authorization
        self.socketID = socketID
    }
}
