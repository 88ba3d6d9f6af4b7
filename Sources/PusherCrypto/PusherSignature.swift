// SPDX-License-Identifier: MIT

import PusherCore

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
        return ChannelAuthorization(
            auth: "\(key):\(HMACSHA256.hex(key: secret, message: message))", channelData: channelData)
    }

    /// The `auth` of a user sign-in: the signature of `socketID::user::userData`.
    public static func userAuthentication(key: String, secret: String, socketID: String, userData: String) -> String {
        "\(key):\(HMACSHA256.hex(key: secret, message: "\(socketID)::user::\(userData)"))"
    }
}
