// SPDX-License-Identifier: MIT

import NIOHTTP1

/// The server's answer: its status and body text.
package struct PusherHTTPResponse: Sendable, Hashable {
    package var status: Int
    package var body: String

    package init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// Sends a signed request and returns the server's answer, whatever its status: the seam between
/// ``PusherServer`` and AsyncHTTPClient (tests record requests through it).
package protocol PusherHTTPTransport: Sendable {
    /// Sends `request` with `headers` and waits at most `timeout` for the complete answer.
    ///
    /// - Throws: ``PusherServerError`` `timeout` or `transport`.
    func send(
        _ request: SignedRequest, headers: HTTPHeaders, timeout: Duration
    ) async throws(PusherServerError) -> PusherHTTPResponse
}
