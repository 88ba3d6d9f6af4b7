// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One auth endpoint request through a proxy, on SwiftNIO (AsyncHTTPClient tunnels plain http
/// with `CONNECT` and speaks SOCKS5 without credentials only):
///
/// - `http://` through an HTTP proxy: an absolute-URI request to the proxy
///   (`POST http://host:port/path HTTP/1.1`, with `Proxy-Authorization` when there are credentials);
/// - `https://` through an HTTP proxy: a `CONNECT` tunnel (``ProxyTunnel``), TLS inside it
///   verified against the endpoint's host;
/// - either through a SOCKS5 proxy: a SOCKS5 tunnel, the host name resolved by the proxy.
///
/// One connection per request (`Connection: close`), no redirect followed.
enum ProxiedRequest {
    /// The largest request body sent (an auth request's form is well under 1 KiB).
    static let maximumBodyBytes = 1024 * 1024

    /// Sends `request` to `url` through `proxy` and returns the answer's head and body (at most
    /// `maximumAnswerBytes`). Cancelling the task closes the connection at once.
    ///
    /// - Throws: `PusherError` `proxyFailed` naming the proxy when it cannot be reached or
    ///   refuses (its HTTP status or SOCKS5 reply; never its credentials); `NIOTooManyBytesError`
    ///   for a larger answer; `CancellationError`; NIO's and NIOSSL's errors otherwise.
    static func send(
        _ request: HTTPClientRequest, to url: AuthEndpointURL, through proxy: PusherProxy,
        tlsConfiguration: TLSConfiguration?, maximumAnswerBytes: Int
    ) async throws -> (head: HTTPResponseHead, body: ByteBuffer) {
        let body = try await Self.collect(request.body)
        let isAbsolute = proxy.kind == .httpConnect && !url.useTLS
        let head = Self.head(of: request, to: url, body: body, absoluteThrough: isAbsolute ? proxy : nil)
        let sslContext =
            try url.useTLS ? NIOSSLContext(configuration: tlsConfiguration ?? .makeClientConfiguration()) : nil
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let answer = eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        let attempt = ConnectionAttempt()
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                guard attempt.adopt(channel) else { return channel.eventLoop.makeFailedFuture(CancellationError()) }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if !isAbsolute {
                        try ProxyTunnel.addHandlers(
                            for: proxy, toHost: url.host, port: url.port, pipeline: pipeline,
                            eventLoop: channel.eventLoop, timeout: .seconds(10))
                    }
                    if let sslContext {
                        try pipeline.addHandler(
                            NIOSSLClientHandler(context: sslContext, serverHostname: url.isIPAddress ? nil : url.host))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(
                        ProxiedAnswerCollector(request: head, body: body, limit: maximumAnswerBytes, answer: answer))
                }
            }
        defer { attempt.drop() }
        let (answerHead, answerBody) = try await withTaskCancellationHandler {
            do {
                _ = try await bootstrap.connect(host: proxy.host, port: proxy.port).get()
            } catch {
                answer.fail(error)
                if error is NIOConnectionError || error is ChannelError { throw ProxyTunnel.unreachable(proxy, error) }
                throw error
            }
            return try await answer.futureResult.get()
        } onCancel: {
            attempt.drop()
            answer.fail(CancellationError())
        }
        try Task.checkCancellation()
        if isAbsolute && answerHead.status == .proxyAuthenticationRequired {
            throw PusherError(
                .proxyFailed,
                "the \(proxy.name) refused the request to \(url.hostHeader): HTTP 407 \(ProxyTunnelGate.shown(answerHead.status.reasonPhrase))"
            )
        }
        return (answerHead, answerBody)
    }

    /// The request's head: its method and headers, `Host`, `Content-Length`, `Connection: close`,
    /// and, for an absolute-URI request to the HTTP proxy `absoluteThrough`, its Basic credentials.
    private static func head(
        of request: HTTPClientRequest, to url: AuthEndpointURL, body: ByteBuffer, absoluteThrough: PusherProxy?
    ) -> HTTPRequestHead {
        var headers = request.headers
        if !headers.contains(name: "Host") { headers.add(name: "Host", value: url.hostHeader) }
        headers.remove(name: "Transfer-Encoding")
        headers.replaceOrAdd(name: "Content-Length", value: "\(body.readableBytes)")
        headers.replaceOrAdd(name: "Connection", value: "close")
        if let proxy = absoluteThrough, let username = proxy.username {
            let credentials = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
            headers.replaceOrAdd(name: "Proxy-Authorization", value: "Basic \(credentials)")
        }
        let target = absoluteThrough == nil ? url.originForm : url.absoluteForm
        return HTTPRequestHead(version: .http1_1, method: request.method, uri: target, headers: headers)
    }

    /// The whole body, at most ``maximumBodyBytes``.
    private static func collect(_ body: HTTPClientRequest.Body?) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        guard let body else { return collected }
        for try await var part in body {
            guard collected.readableBytes + part.readableBytes <= Self.maximumBodyBytes else {
                throw PusherError(
                    .invalidConfiguration,
                    "a request body through a proxy is limited to \(Self.maximumBodyBytes / 1024) KiB")
            }
            collected.writeBuffer(&part)
        }
        return collected
    }
}
