// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the loopback server received it.
struct ReceivedHTTPRequest: Sendable {
    let method: HTTPMethod
    let uri: String
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The value of query parameter `name`, still percent-encoded.
    func rawQueryValue(_ name: String) -> String? {
        guard let query = self.uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 that records requests and answers as told: never when
/// `respond` returns nil, and with status 200 and a body that stops halfway when it returns a
/// negative status.
final class LoopbackHTTPServer: Sendable {
    typealias Responder = @Sendable (ReceivedHTTPRequest) -> (status: Int, body: String)?

    private let received: NIOLockedValueBox<[ReceivedHTTPRequest]>
    let port: Int
    private let listener: any Channel

    var requests: [ReceivedHTTPRequest] { self.received.withLockedValue { $0 } }

    private init(port: Int, listener: any Channel, received: NIOLockedValueBox<[ReceivedHTTPRequest]>) {
        self.received = received
        self.port = port
        self.listener = listener
    }

    /// Runs a server while `body` runs; every answer also carries `headers` (a `Location`, say).
    @discardableResult
    static func withServer<Value>(
        respond: @escaping Responder, headers: [(String, String)] = [],
        _ body: (LoopbackHTTPServer) async throws -> Value
    ) async throws -> Value {
        let received = NIOLockedValueBox<[ReceivedHTTPRequest]>([])
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        Handler(respond: respond, headers: headers, received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = LoopbackHTTPServer(port: listener.localAddress?.port ?? 0, listener: listener, received: received)
        do {
            let value = try await body(server)
            try? await listener.close()
            return value
        } catch {
            try? await listener.close()
            throw error
        }
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed).
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let respond: Responder
        let extraHeaders: [(String, String)]
        let received: NIOLockedValueBox<[ReceivedHTTPRequest]>
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(
            respond: @escaping Responder, headers: [(String, String)],
            received: NIOLockedValueBox<[ReceivedHTTPRequest]>
        ) {
            self.respond = respond
            self.extraHeaders = headers
            self.received = received
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                self.body = []
            case .body(var buffer):
                self.body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head = self.head else { return }
                let request = ReceivedHTTPRequest(
                    method: head.method, uri: head.uri, headers: head.headers, body: self.body)
                self.received.withLockedValue { $0.append(request) }
                guard let (status, text) = self.respond(request) else { return }
                let stalls = status < 0
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: "application/json")
                headers.add(name: "Content-Length", value: String(text.utf8.count + (stalls ? 100 : 0)))
                headers.add(contentsOf: self.extraHeaders)
                let responseHead = HTTPResponseHead(
                    version: head.version, status: HTTPResponseStatus(statusCode: stalls ? 200 : status),
                    headers: headers)
                context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
                context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
                if stalls {
                    context.flush()
                } else {
                    context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
                }
            }
        }
    }
}
