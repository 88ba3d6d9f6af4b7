// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOPosix
import PusherCore

/// The HTTP/1 server of `webhooks`: each request's body (at most
/// ``WebhookLimits/maximumBodyBytes``) is handed to ``WebhookReceiver``; accepted lines are written
/// to standard output before the 200 is sent, so a slow reader of standard output slows the
/// senders instead of filling memory.
///
/// Bounded for the internet (``WebhookLimits``): a deadline for each request, a cap on open
/// connections, and a byte budget shared by the bodies not verified yet. Lines about rejected
/// requests go through a ``RejectionLog``.
struct WebhookHTTPServer: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    let receiver: WebhookReceiver
    let output: OutputWriter
    let limits: WebhookLimits
    let log: RejectionLog
    private let connections: SharedAllowance
    private let unverifiedBytes: SharedAllowance

    init(receiver: WebhookReceiver, output: OutputWriter, limits: WebhookLimits, log: RejectionLog) {
        (self.receiver, self.output, self.limits, self.log) = (receiver, output, limits, log)
        self.connections = SharedAllowance(limit: limits.maximumConnections)
        self.unverifiedBytes = SharedAllowance(limit: limits.unverifiedBytes)
    }

    /// Binds `host:port` (0 picks a free port); each connection has a ``RequestDeadlineHandler``
    /// of `requestTimeout`.
    static func bind(host: String, port: Int, requestTimeout: Duration) async throws -> NIOAsyncChannel<
        Connection, Never
    > {
        let timeout = TimeAmount.nanoseconds(requestTimeout.clampedNanoseconds)
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(RequestDeadlineHandler(timeout: timeout))
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Serves the connections of `listener` until it is closed or the task is cancelled.
    func serve(_ listener: NIOAsyncChannel<Connection, Never>) async throws {
        try await withThrowingDiscardingTaskGroup { connections in
            try await listener.executeThenClose { inbound in
                for try await connection in inbound {
                    guard self.connections.take(1) else {
                        // Over the cap: closed at once, before anything is read.
                        try? await connection.executeThenClose { _, _ in }
                        self.log.log(
                            "webhooks: a connection closed at once: \(self.limits.maximumConnections) connections are open"
                        )
                        continue
                    }
                    connections.addTask {
                        defer { self.connections.giveBack(1) }
                        // A failed connection concerns only itself.
                        try? await self.serve(connection)
                    }
                }
            }
        }
    }

    /// Serves the requests of one connection (keep-alive included) until it closes.
    private func serve(_ connection: Connection) async throws {
        // Body bytes of the current request taken from the shared budget.
        var held = 0
        defer { self.unverifiedBytes.giveBack(held) }
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    (head, body) = (requestHead, ByteBuffer())
                    let length = requestHead.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
                    guard length <= self.limits.maximumBodyBytes else {
                        try await self.refuse(requestHead, status: .payloadTooLarge, outbound: outbound)
                        return
                    }
                    continue
                case .body(var chunk):
                    guard let head else { return }
                    guard body.readableBytes + chunk.readableBytes <= self.limits.maximumBodyBytes else {
                        try await self.refuse(head, status: .payloadTooLarge, outbound: outbound)
                        return
                    }
                    guard self.unverifiedBytes.take(chunk.readableBytes) else {
                        try await self.refuse(head, status: .serviceUnavailable, outbound: outbound)
                        return
                    }
                    held += chunk.readableBytes
                    body.writeBuffer(&chunk)
                    continue
                case .end:
                    break
                }
                guard let head else { return }
                let status = await self.handle(head: head, body: body)
                // Verified (or rejected): the body leaves the budget.
                self.unverifiedBytes.giveBack(held)
                (held, body) = (0, ByteBuffer())
                let keepAlive = head.isKeepAlive && status == .ok
                try await self.answer(head, status: status, keepAlive: keepAlive, outbound: outbound)
                if !keepAlive { return }
            }
        }
    }

    /// Answers `status` before the body was read whole, and logs why; the connection is then closed.
    private func refuse(
        _ head: HTTPRequestHead, status: HTTPResponseStatus,
        outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        let reason =
            status == .payloadTooLarge
            ? "the body is over \(self.limits.maximumBodyBytes) bytes"
            : "the bodies not verified yet are over \(self.limits.unverifiedBytes) bytes in all"
        self.log.log("webhooks: \(status.code) \(head.method) \(head.uri): \(reason)")
        try await self.answer(head, status: status, keepAlive: false, outbound: outbound)
    }

    private func answer(
        _ head: HTTPRequestHead, status: HTTPResponseStatus, keepAlive: Bool,
        outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers: HTTPHeaders = ["Content-Length": "0"]
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        try await outbound.write(contentsOf: [
            .head(HTTPResponseHead(version: head.version, status: status, headers: headers)), .end(nil),
        ])
    }

    /// Verifies one request and prints what it holds; returns the status to answer.
    private func handle(head: HTTPRequestHead, body: ByteBuffer) async -> HTTPResponseStatus {
        switch self.receiver.receive(method: head.method, uri: head.uri, headers: head.headers, body: body) {
        case .rejected(let status, let reason):
            self.log.log("webhooks: \(status.code) \(reason)")
            return status
        case .accepted(let lines, let warnings):
            for warning in warnings { Output.error(warning) }
            // One write for the webhook's lines: those of concurrent requests never interleave.
            guard !lines.isEmpty else { return .ok }
            return await self.output.write(lines.joined(separator: "\n")) ? .ok : .serviceUnavailable
        }
    }
}
