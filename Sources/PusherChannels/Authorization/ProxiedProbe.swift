// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import PusherCore

/// One HTTP request through a proxy on the package's own request path (``ProxiedRequest``, what the
/// auth endpoint calls take through a proxy), its answer returned whatever its status: for
/// `pusher-channels doctor`, which looks at the status, the headers and the body itself.
package enum ProxiedProbe {
    /// Sends `request` through `proxy` and returns the answer's head and body (at most
    /// `maximumAnswerBytes`). Cancelling the task closes the connection at once.
    ///
    /// - Throws: `PusherError` `invalidConfiguration` when the request's URL is not an `http://` or
    ///   `https://` URL with a host; `proxyFailed` naming the proxy when it cannot be reached or
    ///   refuses; `NIOTooManyBytesError` for a larger answer; NIO's and NIOSSL's errors otherwise.
    package static func send(
        _ request: HTTPClientRequest, through proxy: PusherProxy, tlsConfiguration: TLSConfiguration?,
        maximumAnswerBytes: Int
    ) async throws -> (head: HTTPResponseHead, body: ByteBuffer) {
        guard let url = AuthEndpointURL(request.url) else {
            throw PusherError(
                .invalidConfiguration, "the URL cannot be read as an http:// or https:// URL with a host")
        }
        return try await ProxiedRequest.send(
            request, to: url, through: proxy, tlsConfiguration: tlsConfiguration,
            maximumAnswerBytes: maximumAnswerBytes)
    }
}
