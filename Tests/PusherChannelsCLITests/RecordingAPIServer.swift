// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PusherChannels
import PusherChannelsTesting

/// A loopback HTTP server for the CLI's HTTP API commands: it records every request, checks its
/// signature on its own (key, `auth_version`, timestamp window, `body_md5` of the bytes received,
/// HMAC-SHA256 over the sorted query) and answers what `respond` says (401 for a bad signature).
final class RecordingAPIServer: Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// The query's parameters, percent-decoded.
        var query: [String: String]
        var body: String
        /// Why the signature check failed; nil when it passed.
        var signatureProblem: String?
    }

    let port: Int
    private let recorded = NIOLockedValueBox<[Request]>([])

    private init(port: Int) {
        self.port = port
    }

    var requests: [Request] { self.recorded.withLockedValue { $0 } }

    /// Runs a server for app key `key` and `secret` while `body` runs; every answer also carries
    /// `headers` (a `Location`, say). With `tls`, it speaks HTTPS with the test CA's `localhost`
    /// certificate.
    static func withRunning<Result: Sendable>(
        key: String,
        secret: String,
        respond: @escaping @Sendable (Request) -> (status: Int, body: String) = { _ in (200, "{}") },
        headers: [(String, String)] = [],
        tls: Bool = false,
        _ body: (RecordingAPIServer) async throws -> Result
    ) async throws -> Result {
        let sslContext = try tls ? NIOSSLContext(configuration: Self.tlsConfiguration()) : nil
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        let server = RecordingAPIServer(port: listener.channel.localAddress?.port ?? 0)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask {
                                try? await server.serve(
                                    connection, key: key, secret: secret, respond: respond, headers: headers)
                            }
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

    private func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
        key: String,
        secret: String,
        respond: @Sendable (Request) -> (status: Int, body: String),
        headers: [(String, String)]
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    (head, body) = (requestHead, ByteBuffer())
                    continue
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                    continue
                case .end:
                    break
                }
                guard let head else { return }
                let request = Self.request(head: head, body: Array(body.readableBytesView), key: key, secret: secret)
                self.recorded.withLockedValue { $0.append(request) }
                let (status, text) =
                    request.signatureProblem == nil ? respond(request) : (401, request.signatureProblem ?? "")
                var responseHeaders: HTTPHeaders = ["Content-Length": "\(text.utf8.count)"]
                responseHeaders.add(contentsOf: headers)
                try await outbound.write(contentsOf: [
                    .head(
                        HTTPResponseHead(
                            version: head.version, status: HTTPResponseStatus(statusCode: status),
                            headers: responseHeaders)),
                    .body(.byteBuffer(ByteBuffer(string: text))),
                    .end(nil),
                ])
            }
        }
    }

    /// The test CA's `localhost` certificate and key.
    private static func tlsConfiguration() throws -> TLSConfiguration {
        let server = TestCertificates.Server.localhost
        let certificate = try NIOSSLCertificate(bytes: Array(server.certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(server.privateKeyPEM.utf8), format: .pem)
        return .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    }

    /// The request, its signature checked.
    private static func request(head: HTTPRequestHead, body: [UInt8], key: String, secret: String) -> Request {
        let components = URLComponents(string: head.uri)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var request = Request(
            method: "\(head.method)", path: components?.path ?? head.uri, query: query,
            body: String(decoding: body, as: UTF8.self))
        let signed = query.filter { $0.key != "auth_signature" }.sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { "\($0.key.lowercased())=\($0.value)" }.joined(separator: "&")
        let expected = HMACSHA256.hex(key: secret, message: "\(request.method)\n\(request.path)\n\(signed)")
        let timestamp = Int(query["auth_timestamp"] ?? "") ?? 0
        let now = Int(Date().timeIntervalSince1970)
        if query["auth_key"] != key {
            request.signatureProblem = "unknown auth_key"
        } else if query["auth_version"] != "1.0" {
            request.signatureProblem = "auth_version is not 1.0"
        } else if abs(now - timestamp) > 600 {
            request.signatureProblem = "auth_timestamp not within 600 s"
        } else if head.method == .POST && query["body_md5"] != MD5Digest.hex(body) {
            request.signatureProblem = "body_md5 does not match the body"
        } else if query["auth_signature"] != expected {
            request.signatureProblem = "invalid signature"
        }
        return request
    }
}
