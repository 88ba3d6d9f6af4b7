// SPDX-License-Identifier: MIT

/// The seam between the client and the network: something that opens a WebSocket, hands its
/// inbound messages over in batches, and sends text. ``NIOWebSocketTransport`` is the real one; tests
/// use an in-memory one (`PusherChannelsTesting`), so client behaviour is tested without sockets.
package protocol PusherTransport: Sendable {
    /// Opens a WebSocket to `url` and runs `session` while it is open.
    ///
    /// - Returns: The close frame the server sent, if one came.
    /// - Throws: When the connection cannot be opened or fails. Cancelling the calling task drops
    ///   the connection at once.
    func connect(
        to url: String,
        configuration: TransportConfiguration,
        session: @Sendable (any TransportConnection) async throws -> Void
    ) async throws -> TransportClose?
}
