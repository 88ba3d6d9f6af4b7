// SPDX-License-Identifier: MIT

/// The seam between the client and the network: something that opens a WebSocket, hands each
/// read's messages to a ``TransportHandler`` where they are read (no hop in between), and sends
/// text. ``NIOWebSocketTransport`` is the real one; tests use an in-memory one
/// (`PusherChannelsTesting`), so client behaviour is tested without sockets.
package protocol PusherTransport: Sendable {
    /// Opens a WebSocket to `url` and returns once it has ended.
    ///
    /// The transport first gives `handler` the ``TransportConnection`` of the attempt (which aborts
    /// it in any phase), calls ``TransportHandler/opened()`` once the WebSocket is open, then hands
    /// over every read's messages.
    ///
    /// - Returns: The close frame that ended the connection (the server's, or the client's own when
    ///   the server broke a limit), if one did.
    /// - Throws: When the connection cannot be opened or fails. Cancelling the calling task drops
    ///   the connection at once.
    func connect(
        to url: String, configuration: TransportConfiguration, handler: any TransportHandler
    ) async throws -> TransportClose?
}
