// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP/1 server of `webhooks`: each request's body (at most ``maximumBodyBytes``) is handed
/// to ``WebhookReceiver``; accepted lines are written to standard output before the 200 is sent,
/// so a slow reader of standard output slows the senders instead of filling memory.
struct WebhookHTTPServer: Sendable {
    /// Larger bodies get 413 (Pusher's webhooks are far smaller).
    static let maximumBodyBytes = 1 << 20

    let receiver: WebhookReceiver
    let output: OutputWriter

    /// Binds `host:port` (0 picks a free port).
    static func bind(host: String, port: Int) async throws -> NIOAsyncChannel<
        NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never
    > {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Serves the connections of `listener` until it is closed or the task is cancelled.
    func serve(
        _ listener: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    ) async throws {
        try await withThrowingDiscardingTaskGroup { connections in
            try await listener.executeThenClose { inbound in
                for try await connection in inbound {
                    connections.addTask {
                        // A failed connection concerns only itself.
                        try? await self.serve(connection)
                    }
                }
            }
        }
    }

    /// Serves the requests of one connection (keep-alive included) until it closes.
    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            var tooLarge = false
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    (head, body, tooLarge) = (requestHead, ByteBuffer(), false)
                    continue
                case .body(var chunk):
                    if body.readableBytes + chunk.readableBytes > Self.maximumBodyBytes {
                        tooLarge = true
                    } else if !tooLarge {
                        body.writeBuffer(&chunk)
                    }
                    continue
                case .end:
                    break
                }
                guard let head else { return }
                let status: HTTPResponseStatus
                if tooLarge {
                    status = .payloadTooLarge
                    Output.error(
                        "webhooks: \(head.method) \(head.uri): the body is over \(Self.maximumBodyBytes) bytes")
                } else {
                    status = await self.handle(head: head, body: body)
                }
                let keepAlive = head.isKeepAlive && status == .ok
                var headers: HTTPHeaders = ["Content-Length": "0"]
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                try await outbound.write(contentsOf: [
                    .head(HTTPResponseHead(version: head.version, status: status, headers: headers)), .end(nil),
                ])
                if !keepAlive { return }
            }
        }
    }

    /// Verifies one request and prints what it holds; returns the status to answer.
    private func handle(head: HTTPRequestHead, body: ByteBuffer) async -> HTTPResponseStatus {
        switch self.receiver.receive(method: head.method, uri: head.uri, headers: head.headers, body: body) {
        case .rejected(let status, let reason):
            Output.error("webhooks: \(status.code) \(reason)")
            return status
        case .accepted(let lines, let warnings):
            for warning in warnings { Output.error(warning) }
            // One write for the webhook's lines: those of concurrent requests never interleave.
            guard !lines.isEmpty else { return .ok }
            return await self.output.write(lines.joined(separator: "\n")) ? .ok : .serviceUnavailable
        }
    }
}
