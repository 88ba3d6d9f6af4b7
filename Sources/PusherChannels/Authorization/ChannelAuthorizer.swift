// SPDX-License-Identifier: MIT

import NIOSSL
import PusherCore

/// Authorizes subscriptions to private and presence channels.
///
/// The client asks it once per subscription and per connection: every (re)subscription is
/// authorized afresh for the current socket id, and an answer that arrives after the socket id
/// changed is discarded. Answers that take longer than
/// ``PusherClientConfiguration/authorizationTimeout`` fail the subscription.
///
/// The closure runs in a child task of the client's `run()`; it must return (or throw) when that
/// task is cancelled, as AsyncHTTPClient requests do.
public struct ChannelAuthorizer: Sendable {
    /// Returns the authorization of `channel` for the connection `socketID`.
    typealias Authorize = @Sendable (_ socketID: String, _ channel: String) async throws -> ChannelAuthorization

    /// The authorization, given the TLS configuration and proxy setting of the client that asks
    /// (for the HTTP endpoints, which trust what the WebSocket trusts and take the same proxy).
    private let run:
        @Sendable (_ socketID: String, _ channel: String, _ settings: AuthEndpointSettings) async throws ->
            ChannelAuthorization
    /// The authorization computed at once (in-process signing), or nil for a channel that needs
    /// ``run`` (a presence channel asks for its member asynchronously).
    let local: (@Sendable (_ socketID: String, _ channel: String) -> Result<ChannelAuthorization, PusherError>?)?

    /// An authorizer that runs your code: call your backend, a token service, anything async.
    ///
    /// - Parameter authorize: Returns the authorization of `channel` for the connection `socketID`.
    public init(
        _ authorize: @escaping @Sendable (_ socketID: String, _ channel: String) async throws -> ChannelAuthorization
    ) {
        self.run = { socketID, channel, _ in try await authorize(socketID, channel) }
        self.local = nil
    }

    init(
        usingTLS run: @escaping @Sendable (String, String, AuthEndpointSettings) async throws -> ChannelAuthorization
    ) {
        self.run = run
        self.local = nil
    }

    private init(
        _ authorize: @escaping Authorize,
        local: @escaping @Sendable (String, String) -> Result<ChannelAuthorization, PusherError>?
    ) {
        self.run = { socketID, channel, _ in try await authorize(socketID, channel) }
        self.local = local
    }

    /// The authorization of `channel` for `socketID`; HTTP endpoints use `settings` (the client's
    /// ``PusherClientConfiguration/tlsConfiguration`` and ``PusherClientConfiguration/proxy``).
    func authorize(_ socketID: String, _ channel: String, settings: AuthEndpointSettings = .init()) async throws
        -> ChannelAuthorization
    {
        try await self.run(socketID, channel, settings)
    }

    /// Signs in-process with the app secret, as the official server libraries do.
    ///
    /// This is the normal choice for a server that holds the secret (a backend consuming its own
    /// app's channels): no HTTP round trip. Private and encrypted channels are signed at once, as
    /// part of subscribing (no authorizer call: no task, timeout, span or authorization metric),
    /// so subscribing to thousands of them costs about what public ones do; presence channels ask
    /// `presenceMember` first, as an authorizer call. Never use it in an app that runs on users' devices: the
    /// secret would ship with it. There, authorize through your backend with ``init(_:)``.
    ///
    /// - Parameters:
    ///   - key: The application key.
    ///   - secret: The application secret.
    ///   - masterKey: The app's encryption master key (base64 of 32 bytes); required to subscribe
    ///     to private-encrypted channels, whose shared secret is derived from it.
    ///   - presenceMember: Who the client is on a presence channel; required to subscribe to
    ///     presence channels.
    public static func signing(
        key: String,
        secret: String,
        masterKey: String? = nil,
        presenceMember: (@Sendable (_ channel: String) async throws -> PresenceMember)? = nil
    ) -> ChannelAuthorizer {
        let sign = { @Sendable (socketID: String, channel: String) -> Result<ChannelAuthorization, PusherError>? in
            guard ChannelName.kind(of: channel) != .presence else { return nil }
            return Result { () throws(PusherError) in
                try Self.sign(key: key, secret: secret, masterKey: masterKey, socketID: socketID, channel: channel)
            }
        }
        return ChannelAuthorizer(
            { socketID, channel in
                var channelData: String?
                if ChannelName.kind(of: channel) == .presence {
                    guard let presenceMember else {
                        throw PusherError(
                            .authorizationFailed, "presence channels need a presence member to sign channel_data",
                            channel: channel)
                    }
                    channelData = try await presenceMember(channel).channelData
                }
                return try Self.sign(
                    key: key, secret: secret, masterKey: masterKey, socketID: socketID, channel: channel,
                    channelData: channelData)
            },
            local: sign)
    }

    /// The signed authorization of `channel` for `socketID`, with the shared secret of an
    /// encrypted channel.
    private static func sign(
        key: String, secret: String, masterKey: String?, socketID: String, channel: String, channelData: String? = nil
    ) throws(PusherError) -> ChannelAuthorization {
        var authorization = PusherSignature.channelAuthorization(
            key: key, secret: secret, socketID: socketID, channel: channel, channelData: channelData)
        if ChannelName.kind(of: channel) == .privateEncrypted {
            guard let masterKey else {
                throw PusherError(
                    .authorizationFailed, "private-encrypted channels need the encryption master key to sign",
                    channel: channel)
            }
            authorization.sharedSecret = try EncryptionMasterKey.sharedSecret(forChannel: channel, masterKey: masterKey)
        }
        return authorization
    }
}
