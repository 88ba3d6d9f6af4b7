// SPDX-License-Identifier: MIT

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
