// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import PusherChannelsServer

/// What `webhooks` does with one HTTP request: a POST (any path) whose `X-Pusher-Key` and
/// `X-Pusher-Signature` pass ``WebhookVerifier`` is accepted, and each of its events becomes one
/// JSON line (the event object as sent, plus the webhook's `time_ms`); anything else is rejected
/// with a status and a reason for standard error. Nothing of a rejected body is decoded or printed.
struct WebhookReceiver: Sendable {
    enum Outcome: Sendable, Equatable {
        /// 200, these lines on standard output, and these warnings on standard error (client
        /// events of encrypted channels that did not decrypt: printed as sent).
        case accepted(lines: [String], warnings: [String])
        /// This status, and `reason` on standard error.
        case rejected(status: HTTPResponseStatus, reason: String)
    }

    let verifier: WebhookVerifier

    func receive(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: ByteBuffer) -> Outcome {
        guard method == .POST else {
            return .rejected(status: .methodNotAllowed, reason: "\(method) \(uri): only POST is accepted")
        }
        let webhook: Webhook
        do {
            webhook = try self.verifier.verify(
                key: headers.first(name: "X-Pusher-Key"),
                signature: headers.first(name: "X-Pusher-Signature"),
                body: body.readableBytesView
            )
        } catch {
            let status: HTTPResponseStatus
            switch error.code {
            case .invalidSignature, .unknownKey: status = .unauthorized
            default: status = .badRequest
            }
            return .rejected(status: status, reason: "POST \(uri): \(error.message)")
        }
        let warnings = webhook.events.compactMap { event in
            event.decryptionError.map { "webhooks: \(event.channel ?? "?"): data printed as sent: \($0.message)" }
        }
        return .accepted(lines: webhook.events.map { Self.line($0, timeMs: webhook.timeMs) }, warnings: warnings)
    }

    /// The event object as sent (data decrypted when it was), plus `time_ms`, as compact JSON.
    static func line(_ event: WebhookEvent, timeMs: JSONValue?) -> String {
        guard case .object(var fields) = event.fields else { return event.fields.jsonText }
        if let timeMs { fields["time_ms"] = timeMs }
        return JSONValue.object(fields).jsonText
    }
}
