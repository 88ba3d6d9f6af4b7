// SPDX-License-Identifier: MIT

import HTTPTypes

/// What to send back from one of your three Pusher endpoints (channel authorization, user
/// authentication, webhooks): the status, the headers (with `Content-Type`) and the body.
///
/// The endpoint calls of ``PusherServer`` and ``WebhookVerifier`` return one, with every refusal
/// already mapped to its status, so a route only copies it into the framework's response:
///
/// | Status | When |
/// | --- | --- |
/// | 200 OK | The request was authorized, or the webhook verified and handled; the body is JSON. |
/// | 400 Bad Request | The body is not a valid form or webhook, or names an invalid channel or `socket_id`. |
/// | 401 Unauthorized | A webhook whose key is unknown or whose signature does not match. |
/// | 403 Forbidden | Your code refused the request. |
/// | 500 Internal Server Error | The server cannot answer as configured (an encrypted channel without master key, an empty user id). |
///
/// Refusals carry a short plain-text reason, never a secret, of at most 256 UTF-8 bytes.
public struct PusherEndpointResponse: Sendable, Hashable {
    /// The status to answer with.
    public var status: HTTPResponse.Status
    /// The headers to send: `Content-Type` (``contentType``).
    public var headerFields: HTTPFields
    /// The `Content-Type` value: `application/json` on success, `text/plain; charset=utf-8`
    /// otherwise.
    public var contentType: String
    /// The body: JSON on success, a short reason otherwise.
    public var body: String

    /// At most this many UTF-8 bytes of a refusal's reason are sent.
    package static let maximumReasonLength = 256

    /// The `Content-Type` of successful answers.
    package static let jsonContentType = "application/json"
    /// The `Content-Type` of refusals.
    package static let textContentType = "text/plain; charset=utf-8"

    /// A response with this status, content type and body; ``headerFields`` holds the
    /// `Content-Type`.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - contentType: The `Content-Type` value.
    ///   - body: The body.
    public init(status: HTTPResponse.Status, contentType: String, body: String) {
        self.status = status
        self.headerFields = [.contentType: contentType]
        self.contentType = contentType
        self.body = body
    }

    /// 200 with a JSON body.
    static func json(_ body: String) -> PusherEndpointResponse {
        PusherEndpointResponse(status: .ok, contentType: Self.jsonContentType, body: body)
    }

    /// A refusal: `status` with `reason` as plain text, cut to ``maximumReasonLength`` bytes (at a
    /// character boundary).
    static func refusal(_ status: HTTPResponse.Status, _ reason: String) -> PusherEndpointResponse {
        var text = reason
        if text.utf8.count > Self.maximumReasonLength {
            var cut = ""
            for character in reason {
                guard cut.utf8.count + character.utf8.count <= Self.maximumReasonLength - 3 else { break }
                cut.append(character)
            }
            text = cut + "..."
        }
        return PusherEndpointResponse(status: status, contentType: Self.textContentType, body: text)
    }
}
