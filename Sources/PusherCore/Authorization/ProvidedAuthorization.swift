// SPDX-License-Identifier: MIT

/// An authorization you obtained yourself for one connection, passed when subscribing
/// (`PusherClient.events(on:named:authorization:buffering:)`, `PusherClient.presence(on:authorization:)`).
///
/// A channel authorization signs the socket id, so it is good for that connection only. The client
/// uses it once, for the subscription on `socketID`; it is never resent. When the connection has
/// another socket id (it was made for an older connection, or the client reconnected later), the
/// client asks `PusherClientConfiguration.authorizer` instead, or, without one, fails the subscription
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
