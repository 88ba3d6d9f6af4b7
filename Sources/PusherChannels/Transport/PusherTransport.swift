// SPDX-License-Identifier: MIT

import Logging
import NIOSSL
import PusherCore

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

/// One open WebSocket, as the client uses it.
package protocol TransportConnection: Sendable {
    /// Every message that arrived since the last call, in order, at least one; suspends while there
    /// is none; nil once the connection has closed.
    func receive() async throws -> [ClientEngine.InboundFrame]?
    /// Sends one text message.
    func send(_ text: String) async throws
    /// Starts the close handshake with a normal closure (1000).
    func close() async throws
}

/// The close frame a server sent.
package struct TransportClose: Sendable, Hashable {
    package var code: Int
    package var reason: String?

    package init(code: Int, reason: String?) {
        self.code = code
        self.reason = reason
    }
}

/// What a transport needs to know from the options.
package struct TransportConfiguration: Sendable {
    package var maximumMessageSize: Int
    package var closeTimeout: Duration
    package var tlsConfiguration: TLSConfiguration?
    package var logger: Logger?
}
