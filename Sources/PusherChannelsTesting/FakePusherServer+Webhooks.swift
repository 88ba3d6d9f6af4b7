// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Webhooks: the server's events (occupied, vacated, member added and removed, client events) POSTed,
// signed, to ``Configuration/webhooks`` (or the target set with `setWebhookTarget(_:)`) by one task of the server's own lifetime, in order.
extension FakePusherServer {
    /// How long one webhook delivery may take before it counts as failed.
    static let webhookTimeout = TimeAmount.seconds(5)
    /// Most webhooks waiting for delivery; more are dropped and counted as failed.
    static let queuedWebhooks = 10_000

    func webhookChannelOccupied(_ channel: String) {
        self.queueWebhook(["name": "channel_occupied", "channel": .string(channel)])
    }

    func webhookChannelVacated(_ channel: String) {
        self.queueWebhook(["name": "channel_vacated", "channel": .string(channel)])
    }

    func webhookMember(added: Bool, channel: String, userID: String) {
        self.queueWebhook([
            "name": .string(added ? "member_added" : "member_removed"), "channel": .string(channel),
            "user_id": .string(userID),
        ])
    }

    func webhookClientEvent(_ message: PusherMessage, channel: String, socketID: String, userID: String?) {
        var event: [String: JSONValue] = [
            "name": "client_event", "channel": .string(channel), "event": .string(message.event),
            "socket_id": .string(socketID),
        ]
        if let data = message.data { event["data"] = .string(data) }
        if let userID { event["user_id"] = .string(userID) }
        self.queueWebhook(event)
    }

    /// Sends the webhooks from now on to `target` (its key and secret default to the server's
    /// ``Configuration/appKey`` and ``Configuration/appSecret``), or to nobody with `nil`. Webhooks
    /// already queued go where they were queued for; events before the first target send nothing.
    ///
    /// This lets an app under test that starts after the server (and so learns its own port
    /// later) register its webhook URL.
    ///
    /// - Parameter target: The receiver, or nil to send no more webhooks.
    /// - Throws: `PusherError` with code `invalidConfiguration` when the URL is not `http://` or
    ///   `https://`, or when there is no secret to sign with (neither `target.secret` nor the
    ///   server's ``Configuration/appSecret``).
    public func setWebhookTarget(_ target: WebhookTarget?) throws(PusherError) {
        self.webhookTarget = try Self.resolved(target, configuration: self.configuration)
    }

    /// `target` with its key and secret filled in from `configuration`; checked.
    static func resolved(
        _ target: WebhookTarget?, configuration: Configuration
    ) throws(PusherError) -> WebhookTarget? {
        guard var target else { return nil }
        let scheme = target.url.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https", target.url.dropFirst(scheme.count).hasPrefix("://") else {
            throw PusherError(.invalidConfiguration, "a webhook target's URL must start with http:// or https://")
        }
        guard let secret = target.secret ?? configuration.appSecret else {
            throw PusherError(
                .invalidConfiguration,
                "a webhook target needs a secret to sign with: set WebhookTarget.secret or Configuration.appSecret")
        }
        target.key = target.key ?? configuration.appKey
        target.secret = secret
        return target
    }

    /// Queues a webhook holding one event, `{"time_ms":…,"events":[event]}`, for the target and each
    /// of ``Configuration/additionalWebhooks``; nothing without a target. A full queue drops it (counted
    /// as failed).
    private func queueWebhook(_ event: [String: JSONValue]) {
        let additional = self.configuration.additionalWebhooks.compactMap {
            try? Self.resolved($0, configuration: self.configuration)
        }
        let targets = (self.webhookTarget.map { [$0] } ?? []) + additional
        guard !targets.isEmpty else { return }
        let timeMs = Int((Date().timeIntervalSince1970 * 1000).rounded())
        let body = JSONValue.object(["time_ms": .number(String(timeMs)), "events": .array([.object(event)])])
        let bytes = Array(body.jsonText.utf8)
        for target in targets {
            if case .dropped = self.webhookQueue.yield((target, bytes)) { self.webhooksFailed += 1 }
        }
    }

    /// Sends the queued webhooks one after the other until the server stops; each counts as
    /// delivered on a 2xx answer and as failed otherwise (another status, no answer in time, a
    /// transport error).
    nonisolated func deliverWebhooks(_ deliveries: AsyncStream<(target: WebhookTarget, body: [UInt8])>) async {
        for await (target, body) in deliveries {
            await self.webhookFinished(delivered: await Self.deliver(body, to: target))
        }
    }

    private static func deliver(_ body: [UInt8], to target: WebhookTarget) async -> Bool {
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        // Both set by `resolved(_:configuration:)`.
        request.headers.add(name: "X-Pusher-Key", value: target.key ?? "")
        request.headers.add(name: "X-Pusher-Signature", value: HMACSHA256.hex(key: target.secret ?? "", message: body))
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: Self.webhookTimeout)
            _ = try await response.body.collect(upTo: 1 << 20)
            return (200..<300).contains(response.status.code)
        } catch {
            return false
        }
    }

    private func webhookFinished(delivered: Bool) {
        if delivered {
            self.webhooksDelivered += 1
        } else {
            self.webhooksFailed += 1
        }
        self.changed()
    }
}
