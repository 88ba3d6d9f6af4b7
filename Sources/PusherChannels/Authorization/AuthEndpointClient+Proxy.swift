// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import PusherCore

extension AuthEndpointClient {
    /// The proxy `request` goes through under `settings`, with its URL read, or nil for a direct
    /// request (no proxy, or the host exempt through `NO_PROXY`).
    ///
    /// - Throws: `PusherError` with `code` when a proxy applies and the request's URL cannot be
    ///   read (it never goes direct past the proxy), or the environment's proxy URL cannot be read.
    static func proxy(
        for request: HTTPClientRequest, settings: AuthEndpointSettings, code: PusherError.Code, endpoint: String,
        environment: @autoclosure () -> [String: String] = ProxyEnvironment.process()
    ) throws(PusherError) -> (proxy: PusherProxy, url: AuthEndpointURL)? {
        if case .direct = settings.proxy { return nil }
        let url = AuthEndpointURL(request.url)
        let proxy: PusherProxy?
        do {
            // A URL that cannot be read is checked against the environment as a host of its own.
            proxy = try PusherClientConfiguration.proxy(
                settings.proxy, forHost: url?.host ?? "", environment: environment())
        } catch {
            throw PusherError(code, "the proxy for \(endpoint) cannot be used: \(error.message)")
        }
        guard let proxy else { return nil }
        guard let url else {
            throw PusherError(
                code,
                "the URL of \(endpoint) cannot be read as an http:// or https:// URL with a host, so it cannot go through the \(proxy.name)"
            )
        }
        // Through a tunnel, NIOSSL would check an IP address's certificate against the address it
        // is connected to: the proxy's.
        if url.useTLS && url.isIPAddress {
            throw PusherError(
                code,
                "\(endpoint) is an https:// URL with an IP address, whose certificate cannot be verified through the \(proxy.name): use its host name, or exempt it with NO_PROXY"
            )
        }
        return (proxy, url)
    }

    /// Sends `request` through `proxy` (see ``ProxiedRequest``) and reads the answer as
    /// ``send(_:client:settings:code:endpoint:channel:)`` does.
    static func send(
        _ request: HTTPClientRequest, to url: AuthEndpointURL, through proxy: PusherProxy,
        settings: AuthEndpointSettings, code: PusherError.Code, endpoint: String, channel: String?
    ) async throws -> Answer {
        var request = request
        TraceContextInjector.inject(into: &request.headers)
        let head: HTTPResponseHead
        let body: ByteBuffer
        func failure(_ message: String, cause: any Error & Sendable) -> PusherError {
            PusherError(code, message, channel: channel, cause: cause)
        }
        do {
            (head, body) = try await ProxiedRequest.send(
                request, to: url, through: proxy,
                tlsConfiguration: request.tlsConfiguration ?? settings.tlsConfiguration,
                maximumAnswerBytes: Self.maximumResponseBytes)
        } catch let error as CancellationError {
            throw error
        } catch let error as NIOTooManyBytesError {
            try Task.checkCancellation()
            throw failure("\(endpoint)'s answer is larger than \(Self.maximumResponseBytes / 1024) KiB", cause: error)
        } catch let error as PusherError {
            try Task.checkCancellation()
            // A proxy's refusal names the proxy and its answer already; so do TLS failures.
            throw failure("the request to \(endpoint) failed: \(error.message)", cause: error)
        } catch {
            try Task.checkCancellation()
            if let tls = PusherError.tlsFailure(error, host: url.host) {
                throw failure("the request to \(endpoint) failed: \(tls.message)", cause: tls)
            }
            throw failure("the request to \(endpoint) through the \(proxy.name) failed: \(error)", cause: error)
        }
        let status = Int(head.status.code)
        return try Self.answer(
            status: status, firstStatus: status, body: body, showsBody: true, code: code, endpoint: endpoint,
            channel: channel)
    }
}
