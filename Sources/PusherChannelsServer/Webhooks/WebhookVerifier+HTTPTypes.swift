// SPDX-License-Identifier: MIT

import HTTPTypes
import NIOCore

/// Webhooks as frameworks on swift-http-types (Hummingbird 2; Vapor converts) hand them over.
extension WebhookVerifier {
    static let keyField = HTTPField.Name("X-Pusher-Key")!
    static let signatureField = HTTPField.Name("X-Pusher-Signature")!

    /// Verifies a webhook, reading `X-Pusher-Key` and `X-Pusher-Signature` from its headers (names
    /// are case-insensitive; the first value of each counts).
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers.
    ///   - body: The request body, byte for byte as received.
    /// - Returns: The webhook's events, in order.
    /// - Throws: As ``verify(key:signature:body:)``.
    public func verify(headerFields: HTTPFields, body: some Collection<UInt8>) throws(PusherServerError) -> Webhook {
        try self.verify(
            key: headerFields[values: Self.keyField].first,
            signature: headerFields[values: Self.signatureField].first,
            body: body
        )
    }

    /// Verifies a webhook whose body is in a `ByteBuffer` (its readable bytes).
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers.
    ///   - body: The request body, as received.
    /// - Returns: The webhook's events, in order.
    /// - Throws: As ``verify(key:signature:body:)``.
    public func verify(headerFields: HTTPFields, body: ByteBuffer) throws(PusherServerError) -> Webhook {
        try self.verify(headerFields: headerFields, body: body.readableBytesView)
    }

    /// Answers a webhook: verifies it, then hands it to `handle`.
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers (`X-Pusher-Key`, `X-Pusher-Signature`).
    ///   - body: The request body, byte for byte as received.
    ///   - handle: What to do with the verified webhook; the answer is sent after it returns.
    /// - Returns: 200 with `{}` after `handle` returned; 401 when the key is missing or unknown or the
    ///   signature is missing or does not match (`handle` is not called); 400 when a correctly
    ///   signed body is not a webhook.
    /// - Throws: Only what `handle` throws: answer 500 then, and Pusher sends the webhook again.
    public func response(
        headerFields: HTTPFields,
        body: some Collection<UInt8>,
        handle: (Webhook) async throws -> Void
    ) async rethrows -> PusherEndpointResponse {
        let webhook: Webhook
        do {
            webhook = try self.verify(headerFields: headerFields, body: body)
        } catch {
            switch error.code {
            case .unknownKey: return .refusal(.unauthorized, "unknown webhook key")
            case .invalidSignature: return .refusal(.unauthorized, "invalid webhook signature")
            default: return .refusal(.badRequest, error.message)
            }
        }
        try await handle(webhook)
        return .json("{}")
    }

    /// Answers a webhook whose body is in a `ByteBuffer`.
    ///
    /// - Parameters:
    ///   - headerFields: The request's headers.
    ///   - body: The request body, as received.
    ///   - handle: What to do with the verified webhook.
    /// - Returns: As ``response(headerFields:body:handle:)``.
    /// - Throws: Only what `handle` throws.
    public func response(
        headerFields: HTTPFields,
        body: ByteBuffer,
        handle: (Webhook) async throws -> Void
    ) async rethrows -> PusherEndpointResponse {
        try await self.response(headerFields: headerFields, body: body.readableBytesView, handle: handle)
    }
}
