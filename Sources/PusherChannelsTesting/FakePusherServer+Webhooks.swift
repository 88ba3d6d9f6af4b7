// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PusherChannels
import PusherServerEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Webhooks: the server's events (occupied, vacated, member added and removed, client events) POSTed,
// signed, to ``Configuration/webhooks`` (or the target set with `setWebhookTarget(_:)`) and each of
// ``Configuration/additionalWebhooks``: one queue and one delivery task per target, in order, within
// the server's lifetime.
extension FakePusherServer {
    /// How long one webhook delivery may take before it counts as failed.
    static let webhookTimeout = TimeAmount.seconds(5)
    /// Most webhooks waiting for one target; more are dropped and counted as failed (the byte
    /// budget, ``Limits/webhookBytes``, bounds them too).
    static let queuedWebhooks = 10_000
    /// Most bytes of a receiver's answer read; the rest is not (the connection is closed).
    static let webhookAnswerBytes = 64 * 1024

    /// The client webhooks are sent with: `HTTPClient.shared`'s settings on its event loop group,
    /// except that it follows no redirect (a 3xx answer is a failed delivery, the signed body goes
    /// nowhere else) and does not retry a connection that could not be established (a refused
    /// connection fails at once). Created on first use and never shut down, like `HTTPClient.shared`.
    static let webhookClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

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
        let previous = self.webhookTarget
        self.webhookTarget = try Self.resolved(target, configuration: self.configuration)
        // The previous target's queue ends once what it holds is delivered.
        if let previous, previous != self.webhookTarget, !self.additionalWebhookTargets.contains(previous) {
            self.webhookQueues.removeValue(forKey: previous)?.finish()
        }
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
    /// of ``Configuration/additionalWebhooks``; nothing without a target. A webhook over the byte
    /// budget or a full queue is dropped (counted as failed).
    func queueWebhook(_ event: JSONValue) {
        let targets = (self.webhookTarget.map { [$0] } ?? []) + self.additionalWebhookTargets
        guard !targets.isEmpty else { return }
        let timeMs = Int((Date().timeIntervalSince1970 * 1000).rounded())
        let body = JSONValue.object(["time_ms": .number(String(timeMs)), "events": .array([event])])
        let bytes = Array(body.jsonText.utf8)
        for target in targets {
            guard self.webhookQueuedBytes + bytes.count <= self.configuration.limits.webhookBytes,
                case .enqueued = self.webhookQueue(for: target).yield(bytes)
            else {
                self.webhooksFailed += 1
                self.log(.info, "webhook to \(target.redactedURL) dropped: its queue is full")
                self.changed()
                continue
            }
            self.webhookQueuedBytes += bytes.count
        }
    }

    /// The queue of `target`, made (and handed to a delivery task of its own) at its first webhook.
    private func webhookQueue(for target: WebhookTarget) -> AsyncStream<[UInt8]>.Continuation {
        if let queue = self.webhookQueues[target] { return queue }
        let (bodies, queue) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingOldest(Self.queuedWebhooks))
        self.webhookQueues[target] = queue
        self.webhookDeliverers.yield(WebhookQueue(target: target, bodies: bodies))
        return queue
    }

    /// Sends each target's webhooks one after the other, every target on a task of its own, until
    /// the server stops; each counts as delivered on a 2xx answer and as failed otherwise (another
    /// status, a redirect, no answer in time, a transport error).
    nonisolated func deliverWebhooks(_ queues: AsyncStream<WebhookQueue>) async {
        await withDiscardingTaskGroup { group in
            for await queue in queues {
                group.addTask {
                    for await body in queue.bodies {
                        // A stream hands out what it holds even to a cancelled task: once the
                        // server stops, nothing more is sent.
                        guard !Task.isCancelled else { return }
                        let failure = await Self.deliver(body, to: queue.target)
                        await self.webhookFinished(failure: failure, to: queue.target, bytes: body.count)
                    }
                }
            }
        }
    }

    /// Delivers one webhook; returns why it failed, or nil when it was delivered.
    private static func deliver(_ body: [UInt8], to target: WebhookTarget) async -> String? {
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        // Both set by `resolved(_:configuration:)`.
        request.headers.add(name: "X-Pusher-Key", value: target.key ?? "")
        request.headers.add(name: "X-Pusher-Signature", value: HMACSHA256.hex(key: target.secret ?? "", message: body))
        request.body = .bytes(ByteBuffer(bytes: body))
        let deadline = NIODeadline.now() + Self.webhookTimeout
        do {
            let response = try await Self.webhookClient.execute(request, deadline: deadline)
            await Self.skim(response.body, until: deadline)
            return (200..<300).contains(response.status.code) ? nil : "answered \(response.status.code)"
        } catch {
            return "\(error)"
        }
    }

    /// Reads at most ``webhookAnswerBytes`` of an answer's body, until `deadline` at the latest;
    /// what it holds does not matter (a 2xx is a delivery whatever its body).
    private static func skim(_ body: HTTPClientResponse.Body, until deadline: NIODeadline) async {
        let left = Duration.nanoseconds(max(0, (deadline - NIODeadline.now()).nanoseconds))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var read = 0
                do {
                    for try await chunk in body {
                        read += chunk.readableBytes
                        if read > Self.webhookAnswerBytes { return }
                    }
                } catch {
                    // The status is what counts.
                }
            }
            group.addTask { try? await Task.sleep(for: left) }
            await group.next()
            group.cancelAll()
        }
    }

    private func webhookFinished(failure: String?, to target: WebhookTarget, bytes: Int) {
        self.webhookQueuedBytes -= bytes
        if let failure {
            self.webhooksFailed += 1
            self.log(.info, "webhook to \(target.redactedURL) failed: \(ServerEngine.escaped(failure))")
        } else {
            self.webhooksDelivered += 1
        }
        self.changed()
    }
}

extension FakePusherServer {
    /// The webhooks of one target, in order, for the delivery task of that target alone (a
    /// receiver that does not answer delays only its own webhooks).
    struct WebhookQueue: Sendable {
        /// The receiver, with its key and secret filled in.
        let target: WebhookTarget
        /// The bodies to POST to it.
        let bodies: AsyncStream<[UInt8]>
    }
}
