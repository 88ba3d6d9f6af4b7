// SPDX-License-Identifier: MIT

import NIOHTTP1

/// The server's answer: its status and body bytes.
package struct PusherHTTPResponse: Sendable, Hashable {
    package var status: Int
    /// The body exactly as received, or its first 16 MiB when ``truncated``.
    package var bytes: [UInt8]
    /// Whether the body was longer than what was read.
    package var truncated: Bool

    /// The body as text (invalid UTF-8 replaced).
    package var body: String {
        get { String(decoding: self.bytes, as: UTF8.self) }
        set { self.bytes = Array(newValue.utf8) }
    }

    package init(status: Int, body: String) {
        self.status = status
        self.bytes = Array(body.utf8)
        self.truncated = false
    }

    package init(status: Int, bytes: [UInt8], truncated: Bool = false) {
        self.status = status
        self.bytes = bytes
        self.truncated = truncated
    }
}

/// Sends a signed request and returns the server's answer, whatever its status: the seam between
/// ``PusherServer`` and AsyncHTTPClient (tests record requests through it).
package protocol PusherHTTPTransport: Sendable {
    /// Sends `request` with `headers` and waits at most `timeout` for the complete answer.
    ///
    /// - Throws: ``PusherServerError`` `timeout`, `transport` or `cancelled`.
    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse
}
