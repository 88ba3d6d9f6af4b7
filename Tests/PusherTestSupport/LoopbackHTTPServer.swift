// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import PusherChannels

/// A small HTTP/1.1 server on a free loopback port that answers every request as a test says (or
/// never), and records what it received: for redirects, oversized answers and hanging endpoints.
package final class LoopbackHTTPServer: Sendable {
    package struct Request: Sendable {
        package var method: String
        package var uri: String
        /// Header names lowercased.
        package var headers: [String: String]
        package var body: String
    }

    package enum Reply: Sendable {
        case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// Reads the request and never answers; the connection stays open until the client closes it.
        case hang
    }

    private struct State {
        package var requests: [Request] = []
        /// Connections the client closed while the server was not answering (``Reply/hang``).
        package var abandoned = 0
        package var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    package let port: Int
    private let reply: @Sendable (Request) -> Reply
    private let state = NIOLockedValueBox(State())

    private init(port: Int, reply: @escaping @Sendable (Request) -> Reply) {
        self.port = port
        self.reply = reply
    }

    package var url: String { "http://127.0.0.1:\(self.port)" }
    package var requests: [Request] { self.state.withLockedValue { $0.requests } }
    package var abandonedConnections: Int { self.state.withLockedValue { $0.abandoned } }

    /// Returns once `condition` holds for the requests received and connections abandoned.
    package func waitUntil(_ condition: @escaping @Sendable (_ requests: [Request], _ abandoned: Int) -> Bool) async {
        while true {
            let done = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let done = self.state.withLockedValue { state -> Bool in
                    if condition(state.requests, state.abandoned) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if done { continuation.resume(returning: true) }
            }
            if done { return }
        }
    }

    private func changed(_ update: (inout State) -> Void) {
        let waiters = self.state.withLockedValue { state in
            update(&state)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    package static func withRunning<Result: Sendable>(
        reply: @escaping @Sendable (Request) -> Reply,
        _ body: (LoopbackHTTPServer) async throws -> Result
    ) async throws -> Result {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the loopback server could not read its own port")
        }
        let server = LoopbackHTTPServer(port: port, reply: reply)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { try? await server.serve(connection) }
                        }
                    }
                }
            }
            defer {
                listener.channel.close(promise: nil)
                group.cancelAll()
            }
            return try await body(server)
        }
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var hanging = false
            do {
                try await self.answer(inbound, outbound, hanging: &hanging)
            } catch {
                // The client went away.
            }
            if hanging { self.changed { $0.abandoned += 1 } }
        }
    }

    private func answer(
        _ inbound: NIOAsyncChannelInboundStream<HTTPServerRequestPart>,
        _ outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        hanging: inout Bool
    ) async throws {
        var head: HTTPRequestHead?
        var body = ByteBuffer()
        for try await part in inbound {
            switch part {
            case .head(let requestHead):
                head = requestHead
                body.clear()
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let head else { continue }
                var headers: [String: String] = [:]
                for (name, value) in head.headers { headers[name.lowercased()] = value }
                let request = Request(
                    method: "\(head.method)", uri: head.uri, headers: headers, body: String(buffer: body))
                self.changed { $0.requests.append(request) }
                switch self.reply(request) {
                case .hang:
                    hanging = true
                case .respond(let status, let extra, let bytes):
                    var responseHeaders = HTTPHeaders(extra)
                    responseHeaders.replaceOrAdd(name: "Content-Length", value: "\(bytes.count)")
                    try await outbound.write(
                        .head(
                            HTTPResponseHead(
                                version: .http1_1, status: HTTPResponseStatus(statusCode: status),
                                headers: responseHeaders)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
                    try await outbound.write(.end(nil))
                }
            }
        }
    }
}
