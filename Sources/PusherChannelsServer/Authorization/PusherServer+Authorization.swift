// SPDX-License-Identifier: MIT

import PusherCore

/// Answering your own clients: channel authorization and user sign-in, signed with the app secret.
/// No network: these only need the configuration.
extension PusherServer {
    /// Authorizes a client's subscription to a private, presence or private-encrypted channel.
    ///
    /// - Parameters:
    ///   - socketID: The client's `socket_id` (`digits.digits`).
    ///   - channel: The channel to authorize.
    ///   - member: Who the client is on a presence channel (its `channel_data`); required there,
    ///     ignored for other channels.
    /// - Returns: The authorization; send ``ChannelAuthorizationResponse/json`` back.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` for an
    ///   invalid socket id or channel name, a public channel, or a presence channel without member;
    ///   ``PusherServerError/Code/invalidConfiguration`` for a private-encrypted channel when the
    ///   configuration has no encryption master key.
    public func authorizeChannel(socketID: String, channel: String, member: PresenceMember? = nil)
        throws(PusherServerError) -> ChannelAuthorizationResponse
    {
        ChannelAuthorizationResponse(
            authorization: try self.authorizationSigner.authorizeChannel(
                socketID: socketID, channel: channel, member: member))
    }

    /// Authorizes a presence channel with a `channel_data` string you wrote yourself, signed and sent
    /// byte for byte (for example with a numeric `user_id`).
    ///
    /// - Parameters:
    ///   - socketID: The client's `socket_id` (`digits.digits`).
    ///   - channel: The channel to authorize.
    ///   - channelData: On a presence channel, a JSON object with a non-empty `user_id` and optional
    ///     `user_info`; ignored for other channels.
    /// - Returns: The authorization; send ``ChannelAuthorizationResponse/json`` back.
    /// - Throws: As ``authorizeChannel(socketID:channel:member:)``, and
    ///   ``PusherServerError/Code/invalidArgument`` when `channelData` is not such an object.
    public func authorizeChannel(socketID: String, channel: String, channelData: String)
        throws(PusherServerError) -> ChannelAuthorizationResponse
    {
        let isPresence = ChannelName.kind(of: channel) == .presence
        return ChannelAuthorizationResponse(
            authorization: try self.authorizationSigner.authorizeChannel(
                socketID: socketID, channel: channel, channelData: isPresence ? channelData : nil))
    }

    /// Authorizes the channel a client's form body asks for.
    ///
    /// - Parameters:
    ///   - request: The decoded form body.
    ///   - member: Who the client is on a presence channel; ignored for other channels.
    /// - Returns: The authorization; send ``ChannelAuthorizationResponse/json`` back.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` when the
    ///   request names no channel (a user sign-in: use ``authenticateUser(socketID:user:)``), and as
    ///   ``authorizeChannel(socketID:channel:member:)``.
    public func authorize(_ request: AuthorizationRequest, member: PresenceMember? = nil) throws(PusherServerError)
        -> ChannelAuthorizationResponse
    {
        guard let channel = request.channelName else {
            throw PusherServerError(
                .invalidArgument, "the request has no channel_name (a user sign-in is answered by authenticateUser)")
        }
        return try self.authorizeChannel(socketID: request.socketID, channel: channel, member: member)
    }

    /// Authenticates a client's connection as `user`, for `pusher:signin`.
    ///
    /// - Parameters:
    ///   - socketID: The client's `socket_id` (`digits.digits`).
    ///   - user: The user; its id must not be empty.
    /// - Returns: The signature and `user_data`; send ``UserAuthenticationResponse/json`` back.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` for an
    ///   invalid socket id or an empty user id.
    public func authenticateUser(socketID: String, user: PusherUser) throws(PusherServerError)
        -> UserAuthenticationResponse
    {
        guard !user.id.isEmpty else {
            throw PusherServerError(.invalidArgument, "a user's id must not be empty")
        }
        return try self.authenticateUser(socketID: socketID, userData: user.userData)
    }

    /// Authenticates a client's connection with a `user_data` string you wrote yourself, signed and
    /// sent byte for byte.
    ///
    /// - Parameters:
    ///   - socketID: The client's `socket_id` (`digits.digits`).
    ///   - userData: A JSON object with a non-empty string `id`, and optionally `user_info` and
    ///     `watchlist` (an array of strings).
    /// - Returns: The signature and `user_data`; send ``UserAuthenticationResponse/json`` back.
    /// - Throws: ``PusherServerError`` with code ``PusherServerError/Code/invalidArgument`` for an
    ///   invalid socket id or `user_data`.
    public func authenticateUser(socketID: String, userData: String) throws(PusherServerError)
        -> UserAuthenticationResponse
    {
        UserAuthenticationResponse(
            authentication: try self.authorizationSigner.authenticateUser(socketID: socketID, userData: userData))
    }

    var authorizationSigner: AuthorizationSigner {
        AuthorizationSigner(
            key: self.configuration.key,
            secret: self.configuration.secret,
            masterKey: self.configuration.encryptionMasterKey?.bytes
        )
    }
}
