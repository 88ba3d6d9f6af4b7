// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import PusherCore

/// How the auth and user-auth endpoints are called: AsyncHTTPClient directly or on a client of
/// the caller's, the package's own request on SwiftNIO through a proxy (``ProxiedRequest``); no
/// redirect followed, an answer of at most ``maximumResponseBytes``, the client's TLS trust.
enum AuthEndpointClient {
    /// The largest answer read from an endpoint (an authorization is well under 1 KiB).
    static let maximumResponseBytes = 64 * 1024

    /// The client used when none is given: on AsyncHTTPClient's default event loop group (the one
    /// `HTTPClient.shared` uses), following no redirect (`HTTPClient.shared` follows up to 20, and
    /// AsyncHTTPClient has no per-request redirect setting). Created on first use and never shut
    /// down, like `HTTPClient.shared`. It does not retry a connection that could not be established.
    /// It makes no spans of its own: the request carries the context of the client's span.
    static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.sharedConfiguration())

    /// The shared client's configuration.
    static func sharedConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(30)),
            connectionPool: HTTPClient.Configuration.ConnectionPool()
        )
        configuration.tracing.tracer = nil
        // A refused connection or a failed TLS handshake fails the call at once, instead of being
        // retried until the connect timeout: the client reports it, and the next subscription asks
        // again.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// An endpoint's answer: a 2xx status and its body, at most ``maximumResponseBytes``.
    struct Answer {
        var status: Int
        var body: ByteBuffer
        var text: String { String(buffer: self.body) }
    }

    /// Sends `request` (with the trace context's headers, and the settings' TLS configuration unless
    /// the request has its own) and reads the answer. Without a client of the caller's, the request
    /// goes through the settings' proxy for its host on the package's own request path
    /// (``ProxiedRequest``), or directly on ``sharedClient``; a client of the caller's is used as
    /// it is configured (the settings' proxy is not applied to it).
    ///
    /// - Parameters:
    ///   - code: The code of every failure (`authorizationFailed`, `signInFailed`).
    ///   - endpoint: How failures name the endpoint ("the auth endpoint").
    /// - Throws: `PusherError` with `code` when the request fails (a proxy's refusal names the
    ///   proxy and its answer), the status is not 2xx (a redirect included: none is followed), or
    ///   the answer is larger than ``maximumResponseBytes``; `CancellationError` when the task is
    ///   cancelled.
    static func send(
        _ request: HTTPClientRequest,
        client: HTTPClient?,
        settings: AuthEndpointSettings,
        code: PusherError.Code,
        endpoint: String,
        channel: String?
    ) async throws -> Answer {
        if let client {
            return try await Self.send(
                request, on: client, settings: settings, code: code, endpoint: endpoint, channel: channel)
        }
        if let proxied = try Self.proxy(for: request, settings: settings, code: code, endpoint: endpoint) {
            return try await Self.send(
                request, to: proxied.url, through: proxied.proxy, settings: settings, code: code, endpoint: endpoint,
                channel: channel)
        }
        return try await Self.send(
            request, on: Self.sharedClient, settings: settings, code: code, endpoint: endpoint, channel: channel)
    }

    private static func send(
        _ request: HTTPClientRequest,
        on client: HTTPClient,
        settings: AuthEndpointSettings,
        code: PusherError.Code,
        endpoint: String,
        channel: String?
    ) async throws -> Answer {
        var request = request
        // A client with a tracer of its own makes a span for the request and writes its context.
        if client.tracer == nil { TraceContextInjector.inject(into: &request.headers) }
        if request.tlsConfiguration == nil { request.tlsConfiguration = settings.tlsConfiguration }
        func failure(_ message: String, status: Int?, body: String?, cause: (any Error & Sendable)? = nil)
            -> PusherError
        {
            var error = PusherError(code, message, channel: channel, cause: cause)
            error.httpStatus = status
            error.responseBody = body
            return error
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .distantFuture)
        } catch {
            try Task.checkCancellation()
            throw failure("the request to \(endpoint) failed: \(error)", status: nil, body: nil, cause: error)
        }
        // A client given by the caller may follow redirects: its first answer is the one that counts.
        let firstStatus = Int(response.history.first?.responseHead.status.code ?? response.status.code)
        let status = Int(response.status.code)
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.maximumResponseBytes)
        } catch let error as NIOTooManyBytesError {
            throw failure(
                "\(endpoint)'s answer (HTTP \(status)) is larger than \(Self.maximumResponseBytes / 1024) KiB",
                status: status, body: nil, cause: error)
        } catch {
            try Task.checkCancellation()
            throw failure(
                "reading the answer of \(endpoint) failed: \(error)", status: status, body: nil, cause: error)
        }
        return try Self.answer(
            status: status, firstStatus: firstStatus, body: body, showsBody: response.history.count <= 1, code: code,
            endpoint: endpoint, channel: channel)
    }

    /// The answer when its status is 2xx; else the failure, carrying the status and (when
    /// `showsBody`) the first 4 KiB of the body. `firstStatus` is the status of the first answer
    /// (a client of the caller's may have followed redirects).
    static func answer(
        status: Int, firstStatus: Int, body: ByteBuffer, showsBody: Bool, code: PusherError.Code, endpoint: String,
        channel: String?
    ) throws(PusherError) -> Answer {
        let text = String(decoding: body.readableBytesView.prefix(4096), as: UTF8.self)
        func failure(_ message: String, status: Int, body: String?) -> PusherError {
            var error = PusherError(code, message, channel: channel)
            error.httpStatus = status
            error.responseBody = body
            return error
        }
        if (300..<400).contains(firstStatus) {
            throw failure(
                "\(endpoint) answered HTTP \(firstStatus), a redirect (redirects are not followed)",
                status: firstStatus, body: showsBody ? text : nil)
        }
        guard (200..<300).contains(status) else {
            throw failure("\(endpoint) answered HTTP \(status)", status: status, body: text)
        }
        return Answer(status: status, body: body)
    }
}
