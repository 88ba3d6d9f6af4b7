// SPDX-License-Identifier: MIT

import HTTPTypes
import NIOCore
import PusherCore

/// Your app's three Pusher endpoints in one call each: the request's bytes in, what to answer out
/// (``PusherEndpointResponse``), with your decision in a closure.
///
/// ```swift
/// router.post("/pusher/auth") { request, context in
///     let body = try await request.body.collect(upTo: 16 * 1024)
///     let answer = await pusher.channelAuthorizationResponse(body: body) { request in
///         guard let user = context.user else { return .deny }
///         return .allowMember(PresenceMember(userID: user.id))
///     }
///     return Response(status: answer.status, headers: answer.headerFields,
///                     body: .init(byteBuffer: ByteBuffer(string: answer.body)))
/// }
/// ```
extension PusherServer {
    /// Answers a client's channel authorization request (`socket_id=…&channel_name=…`).
    ///
    /// The body is decoded and checked first (``AuthorizationRequest``); `decide` is only asked
    /// about a valid request for a `private-`, `presence-` or `private-encrypted-` channel.
    ///
    /// - Parameters:
    ///   - body: The request body, `application/x-www-form-urlencoded`, as received.
    ///   - decide: Your decision for the request: ``ChannelAuthorizationDecision/allow``,
    ///     ``ChannelAuthorizationDecision/allowMember(_:)`` (presence channels) or
    ///     ``ChannelAuthorizationDecision/deny``.
    /// - Returns: 200 with `{"auth":…}` (plus `channel_data` or `shared_secret`); 400 when the body
    ///   is not a valid form, names no channel, an invalid channel or `socket_id`, or a public
    ///   channel; 403 on ``ChannelAuthorizationDecision/deny``, or
    ///   ``ChannelAuthorizationDecision/allow`` for a presence channel; 500 when the configuration
    ///   cannot sign it (a private-encrypted channel without encryption master key, a member with an
    ///   empty id).
    /// - Throws: Only what `decide` throws.
    public func channelAuthorizationResponse(
        body: some Collection<UInt8>,
        decide: (AuthorizationRequest) async throws -> ChannelAuthorizationDecision
    ) async rethrows -> PusherEndpointResponse {
        let request: AuthorizationRequest
        let channel: String
        do {
            request = try AuthorizationRequest(formBody: body)
            guard let name = request.channelName else {
                return .refusal(.badRequest, "the request has no channel_name")
            }
            channel = name
        } catch {
            return .refusal(.badRequest, error.message)
        }
        let kind = ChannelName.kind(of: channel)
        guard kind != .public else {
            return .refusal(.badRequest, "public channels need no authorization")
        }
        let member: PresenceMember?
        switch try await decide(request) {
        case .deny:
            return .refusal(.forbidden, "forbidden")
        case .allow:
            guard kind != .presence else {
                return .refusal(.forbidden, "forbidden: a presence channel needs a member")
            }
            member = nil
        case .allowMember(let presenceMember):
            member = presenceMember
        }
        do {
            return .json(try self.authorize(request, member: member).json)
        } catch {
            return .refusal(.internalServerError, error.message)
        }
    }

    /// Answers a client's channel authorization request whose body is in a `ByteBuffer`.
    ///
    /// - Parameters:
    ///   - body: The request body, as received.
    ///   - decide: Your decision for the request.
    /// - Returns: As the variant that takes any byte collection.
    /// - Throws: Only what `decide` throws.
    public func channelAuthorizationResponse(
        body: ByteBuffer,
        decide: (AuthorizationRequest) async throws -> ChannelAuthorizationDecision
    ) async rethrows -> PusherEndpointResponse {
        try await self.channelAuthorizationResponse(body: body.readableBytesView, decide: decide)
    }

    /// Answers a client's user authentication (`pusher:signin`) request (`socket_id=…`).
    ///
    /// - Parameters:
    ///   - body: The request body, `application/x-www-form-urlencoded`, as received.
    ///   - authenticate: The user the connection signs in as, or `nil` to refuse.
    /// - Returns: 200 with `{"auth":…,"user_data":…}`; 400 when the body is not a valid form or its
    ///   `socket_id` is invalid; 403 when `authenticate` returned `nil`; 500 for a user with an empty
    ///   id.
    /// - Throws: Only what `authenticate` throws.
    public func userAuthenticationResponse(
        body: some Collection<UInt8>,
        authenticate: (AuthorizationRequest) async throws -> PusherUser?
    ) async rethrows -> PusherEndpointResponse {
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRequest(formBody: body)
        } catch {
            return .refusal(.badRequest, error.message)
        }
        guard let user = try await authenticate(request) else {
            return .refusal(.forbidden, "forbidden")
        }
        do {
            return .json(try self.authenticateUser(socketID: request.socketID, user: user).json)
        } catch {
            return .refusal(.internalServerError, error.message)
        }
    }

    /// Answers a client's user authentication request whose body is in a `ByteBuffer`.
    ///
    /// - Parameters:
    ///   - body: The request body, as received.
    ///   - authenticate: The user the connection signs in as, or `nil` to refuse.
    /// - Returns: As the variant that takes any byte collection.
    /// - Throws: Only what `authenticate` throws.
    public func userAuthenticationResponse(
        body: ByteBuffer,
        authenticate: (AuthorizationRequest) async throws -> PusherUser?
    ) async rethrows -> PusherEndpointResponse {
        try await self.userAuthenticationResponse(body: body.readableBytesView, authenticate: authenticate)
    }

    /// Answers a webhook: verifies it with ``webhookVerifier`` (this configuration's key, secret and
    /// master key), then hands it to `handle`.
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers (`X-Pusher-Key`, `X-Pusher-Signature`).
    ///   - body: The request body, byte for byte as received.
    ///   - handle: What to do with the verified webhook; the answer is sent after it returns.
    /// - Returns: As `WebhookVerifier.response(headerFields:body:handle:)`: 200 with `{}` after `handle`
    ///   returned, 401 for an unknown key or a bad signature, 400 for a signed body that is not a webhook.
    /// - Throws: Only what `handle` throws.
    public func webhookResponse(
        headerFields: HTTPFields,
        body: some Collection<UInt8>,
        handle: (Webhook) async throws -> Void
    ) async rethrows -> PusherEndpointResponse {
        try await self.webhookVerifier.response(headerFields: headerFields, body: body, handle: handle)
    }

    /// Answers a webhook whose body is in a `ByteBuffer`.
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers.
    ///   - body: The request body, as received.
    ///   - handle: What to do with the verified webhook.
    /// - Returns: As `WebhookVerifier.response(headerFields:body:handle:)`: 200 with `{}` after `handle`
    ///   returned, 401 for an unknown key or a bad signature, 400 for a signed body that is not a webhook.
    /// - Throws: Only what `handle` throws.
    public func webhookResponse(
        headerFields: HTTPFields,
        body: ByteBuffer,
        handle: (Webhook) async throws -> Void
    ) async rethrows -> PusherEndpointResponse {
        try await self.webhookVerifier.response(
            headerFields: headerFields, body: body.readableBytesView, handle: handle)
    }
}
