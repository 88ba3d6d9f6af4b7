// SPDX-License-Identifier: MIT

import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import PusherCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Puts a proxy's handshake at the front of a connection's pipeline: the TCP connection goes to
/// the proxy, these handlers open the tunnel to the server, and only then do the handlers behind
/// them (TLS for `wss://`, the WebSocket upgrade) see the connection become active.
enum ProxyTunnel {
    /// The name of the `CONNECT` handler in the pipeline.
    static let connectHandlerName = "pusher-proxy-connect"

    /// Adds the handshake handlers for `proxy` to `pipeline`, which must not be active yet, ahead
    /// of the handlers added after them. A refusal reaches those as a `proxyFailed` error; an HTTP
    /// proxy that has not answered `CONNECT` within `timeout` as a `handshakeTimeout` one.
    static func addHandlers(
        for proxy: PusherProxy, toHost host: String, port: Int, pipeline: ChannelPipeline.SynchronousOperations,
        eventLoop: any EventLoop, timeout: Duration
    ) throws {
        let opened = eventLoop.makePromise(of: Void.self)
        let target = Self.authority(host: host, port: port)
        switch proxy.kind {
        case .httpConnect:
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: target)
            if let username = proxy.username {
                headers.add(name: "Proxy-Authorization", value: Self.basicAuthorization(username, proxy.password ?? ""))
            }
            let encoder = HTTPRequestEncoder()
            let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
            let answer = HTTPProxyAnswerRecorder()
            // A real deadline, not a distant one: the handler cancels its timer only on success, so
            // after a refusal the timer holds the whole pipeline until it fires.
            let connect = NIOHTTP1ProxyConnectHandler(
                targetHost: Self.bracketed(host), targetPort: port, headers: headers,
                deadline: eventLoop.now + .nanoseconds(timeout.clampedNanoseconds), promise: opened)
            try pipeline.addHandler(encoder)
            try pipeline.addHandler(decoder)
            try pipeline.addHandler(answer)
            try pipeline.addHandler(connect, name: Self.connectHandlerName)
            try pipeline.addHandler(
                ProxyTunnelGate(
                    proxy: proxy, target: target, timeout: timeout, opened: opened.futureResult, answer: answer,
                    helpers: [encoder, decoder, answer]))
        case .socks5:
            let socks = SOCKS5ClientHandler(proxy: proxy, host: host, port: port, opened: opened)
            try pipeline.addHandler(socks)
            try pipeline.addHandler(
                ProxyTunnelGate(
                    proxy: proxy, target: target, timeout: timeout, opened: opened.futureResult, answer: nil,
                    helpers: []))
        }
    }

    /// `host`, in brackets when it is an IPv6 address.
    static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// `host:port`, with brackets around an IPv6 address.
    static func authority(host: String, port: Int) -> String {
        "\(Self.bracketed(host)):\(port)"
    }

    /// The error for a proxy that could not be reached at all (refused, unknown host).
    static func unreachable(_ proxy: PusherProxy, _ error: any Error) -> PusherError {
        let reasons = (error as? NIOConnectionError)?.connectionErrors.map { "\($0.error)" } ?? []
        let text = reasons.isEmpty ? "\(error)" : reasons.joined(separator: "; ")
        return PusherError(.proxyFailed, "the \(proxy.name) could not be reached: \(text)")
    }

    /// `Basic base64(username:password)`.
    private static func basicAuthorization(_ username: String, _ password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}
