// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1

/// Notes the status of an HTTP proxy's answer to `CONNECT` on its way to
/// `NIOHTTP1ProxyConnectHandler` (whose errors do not expose it), so that a refusal can name it.
final class HTTPProxyAnswerRecorder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    /// The status of the proxy's answer, once its head arrived.
    private(set) var status: HTTPResponseStatus?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = self.unwrapInboundIn(data), self.status == nil { self.status = head.status }
        context.fireChannelRead(data)
    }
}
