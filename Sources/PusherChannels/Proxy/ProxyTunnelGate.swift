// SPDX-License-Identifier: MIT

import NIOCore
import NIOExtras
import NIOHTTP1
import PusherCore

/// Sits behind a proxy's handshake handlers and in front of the connection's own (TLS, the
/// WebSocket upgrade): holds back `channelActive` from those until the tunnel is open, then
/// removes the handshake's helpers and itself; turns the handshake's failures into `proxyFailed`.
final class ProxyTunnelGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let proxy: PusherProxy
    /// `host:port` of the server the tunnel is for.
    private let target: String
    /// The client's handshake timeout, which bounds the `CONNECT`.
    private let timeout: Duration
    private let opened: EventLoopFuture<Void>
    private let answer: HTTPProxyAnswerRecorder?
    /// Handlers of the handshake to remove once the tunnel is open, front first.
    private let helpers: [any RemovableChannelHandler]
    private var isOpen = false

    init(
        proxy: PusherProxy, target: String, timeout: Duration, opened: EventLoopFuture<Void>,
        answer: HTTPProxyAnswerRecorder?, helpers: [any RemovableChannelHandler]
    ) {
        self.proxy = proxy
        self.target = target
        self.timeout = timeout
        self.opened = opened
        self.answer = answer
        self.helpers = helpers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.opened.assumeIsolated().whenSuccess {
            let pipeline = context.pipeline.syncOperations
            // The HTTP codec of the CONNECT must be gone before TLS or the upgrade write their first
            // bytes (the decoder leaves once it finished the read that carried the answer).
            let removals = self.helpers.map { pipeline.removeHandler($0) }
            EventLoopFuture.andAllComplete(removals, on: context.eventLoop).assumeIsolated().whenComplete { _ in
                self.isOpen = true
                context.fireChannelActive()
                pipeline.removeHandler(context: context, promise: nil)
            }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        // Held back: the handlers behind see the connection active once the tunnel is open.
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(self.isOpen ? error : self.failure(error))
    }

    /// What went wrong in the handshake, naming the proxy and its answer. Every error before the
    /// tunnel opens is the proxy's: one that is not a `PusherError` yet becomes `proxyFailed`.
    private func failure(_ error: any Error) -> any Error {
        if error is PusherError { return error }
        let cause = error
        guard let connectError = error as? NIOHTTP1ProxyConnectHandler.Error else {
            if error is HTTPParserError {
                return PusherError(
                    .proxyFailed, "the \(self.proxy.name) sent an answer that is not HTTP (is it an HTTP proxy?)",
                    cause: cause)
            }
            return PusherError(.proxyFailed, "the \(self.proxy.name) failed during its handshake", cause: cause)
        }
        let refused = "the \(self.proxy.name) refused the tunnel to \(self.target)"
        // No cause for a refusal: NIO's error carries the proxy's whole answer head (every header,
        // the reason phrase uncut), which the message gives in short.
        if let status = self.answer?.status, !(200..<300).contains(status.code) {
            var error = PusherError(
                .proxyFailed, "\(refused): HTTP \(status.code) \(Self.shown(status.reasonPhrase))")
            error.httpStatus = Int(status.code)
            return error
        }
        if connectError == .proxyAuthenticationRequired() {
            var error = PusherError(.proxyFailed, "\(refused): HTTP 407 Proxy Authentication Required")
            error.httpStatus = 407
            return error
        }
        if connectError == .httpProxyHandshakeTimeout() {
            return PusherError(
                .handshakeTimeout, "the \(self.proxy.name) did not answer CONNECT within \(self.timeout)", cause: cause)
        }
        if connectError == .remoteConnectionClosed() || connectError == .channelUnexpectedlyInactive() {
            return PusherError(.proxyFailed, "the \(self.proxy.name) closed the connection before answering CONNECT")
        }
        if connectError == .invalidProxyResponse() {
            return PusherError(.proxyFailed, "the \(self.proxy.name) answered CONNECT with a body")
        }
        return PusherError(
            .proxyFailed, "the \(self.proxy.name) failed to open a tunnel to \(self.target)", cause: cause)
    }

    /// A reason phrase as the proxy sent it, fit for a message: without control characters, at
    /// most 64 characters (a proxy may send kilobytes).
    static func shown(_ reasonPhrase: String) -> String {
        var text = String(reasonPhrase.unicodeScalars.filter { $0.properties.generalCategory != .control })
        if text.count > 64 { text = String(text.prefix(64)) + "…" }
        return text
    }
}
