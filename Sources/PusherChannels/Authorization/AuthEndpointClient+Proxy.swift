// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AuthEndpointClient {
    /// The client for `request`: ``sharedClient`` when the settings give no proxy for its host,
    /// else the client of that proxy in `cache` (`isOwn` false), or, past the cache's limit, a new
    /// one the caller shuts down after the request (`isOwn` true).
    ///
    /// - Throws: `PusherError` with `code` when the proxy is a SOCKS5 one with credentials
    ///   (AsyncHTTPClient speaks SOCKS5 without authentication only) or the environment's proxy
    ///   URL cannot be read.
    static func client(
        for request: HTTPClientRequest, settings: AuthEndpointSettings, code: PusherError.Code, endpoint: String,
        environment: @autoclosure () -> [String: String] = ProxyEnvironment.process(),
        cache: ProxyClientCache = .shared
    ) throws(PusherError) -> (client: HTTPClient, isOwn: Bool) {
        guard let host = URL(string: request.url)?.host else { return (Self.sharedClient, false) }
        let proxy: PusherProxy?
        do {
            proxy = try PusherClientOptions.proxy(
                settings.proxy, forHost: Self.unbracketed(host), environment: environment())
        } catch {
            throw PusherError(code, "the proxy for \(endpoint) cannot be used: \(error.message)")
        }
        guard let proxy else { return (Self.sharedClient, false) }
        let configuration = try Self.configuration(through: proxy, code: code, endpoint: endpoint)
        return cache.client(for: proxy) {
            HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
    }

    /// The shared client's configuration with `proxy`.
    private static func configuration(through proxy: PusherProxy, code: PusherError.Code, endpoint: String)
        throws(PusherError) -> HTTPClient.Configuration
    {
        var configuration = Self.sharedConfiguration()
        switch proxy.kind {
        case .httpConnect:
            // AsyncHTTPClient tunnels http:// and https:// requests alike with CONNECT.
            let authorization = proxy.username.map {
                HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
            }
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        case .socks5:
            guard proxy.username == nil else {
                throw PusherError(
                    code,
                    "\(endpoint) cannot be reached through the \(proxy.name) with a username and password: AsyncHTTPClient speaks SOCKS5 without authentication only; pass an httpClient of your own, or exempt the endpoint's host in NO_PROXY"
                )
            }
            configuration.proxy = .socksServer(host: proxy.host, port: proxy.port)
        }
        return configuration
    }

    /// `host` without the brackets of an IPv6 address.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
