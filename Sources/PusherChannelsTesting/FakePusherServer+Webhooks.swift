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
// signed, to ``Configuration/webhooks`` by one task of the server's own lifetime, in order.
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

    /// Queues a webhook holding one event, `{"time_ms":…,"events":[event]}`; nothing without a target.
    private func queueWebhook(_ event: [String: JSONValue]) {
        guard let queue = self.webhookQueue else { return }
        let timeMs = Int((Date().timeIntervalSince1970 * 1000).rounded())
        let body = JSONValue.object(["time_ms": .number(String(timeMs)), "events": .array([.object(event)])])
        if case .dropped = queue.yield(Array(body.jsonText.utf8)) { self.webhooksFailed += 1 }
    }

    /// Sends the queued webhooks one after the other until the server stops, each to every target
    /// in turn; each delivery counts as delivered on a 2xx answer and as failed otherwise (another
    /// status, no answer in time, a transport error).
    nonisolated func deliverWebhooks(_ bodies: AsyncStream<[UInt8]>, to targets: [WebhookTarget]) async {
        for await body in bodies {
            for target in targets {
                await self.webhookFinished(delivered: await Self.deliver(body, to: target))
            }
        }
    }

    private static func deliver(_ body: [UInt8], to target: WebhookTarget) async -> Bool {
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Pusher-Key", value: target.key)
        request.headers.add(name: "X-Pusher-Signature", value: HMACSHA256.hex(key: target.secret, message: body))
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
