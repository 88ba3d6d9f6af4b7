// SPDX-License-Identifier: MIT

import PusherCore

/// The answer to a client's channel authorization request.
public struct ChannelAuthorizationResponse: Sendable, Hashable {
    /// The signature, and the `channel_data` (presence) or `shared_secret` (private-encrypted).
    public var authorization: ChannelAuthorization

    /// An answer carrying `authorization`.
    ///
    /// - Parameter authorization: The channel authorization to send.
    public init(authorization: ChannelAuthorization) {
        self.authorization = authorization
    }

    /// The body to send back with status 200 and `Content-Type: application/json`:
    /// `{"auth":…}`, plus `"channel_data"` or `"shared_secret"` when present.
    public var json: String {
        var text = #"{"auth":"# + JSONWriter.quoted(self.authorization.auth)
        if let channelData = self.authorization.channelData {
            text += #","channel_data":"# + JSONWriter.quoted(channelData)
        }
        if let sharedSecret = self.authorization.sharedSecret {
            text += #","shared_secret":"# + JSONWriter.quoted(sharedSecret)
        }
        return text + "}"
    }
}
