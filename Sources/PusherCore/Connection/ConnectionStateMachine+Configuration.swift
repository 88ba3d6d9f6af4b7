// SPDX-License-Identifier: MIT

extension ConnectionStateMachine {
    /// Timeouts and backoff of the connection.
    package struct Configuration: Sendable, Hashable {
        /// Inactivity after which the client pings; the server's `activity_timeout` lowers it.
        package var activityTimeout: Duration
        /// How long to wait for any message after a ping before dropping the socket.
        package var pongTimeout: Duration
        /// How long the socket may take to open and deliver `pusher:connection_established`.
        package var handshakeTimeout: Duration
        /// How long a socket the client closed may take to finish the close handshake.
        package var closeTimeout: Duration
        package var backoff: Backoff

        package init(
            activityTimeout: Duration = .seconds(120),
            pongTimeout: Duration = .seconds(30),
            handshakeTimeout: Duration = .seconds(10),
            closeTimeout: Duration = .seconds(5),
            backoff: Backoff = Backoff()
        ) {
            self.activityTimeout = activityTimeout
            self.pongTimeout = pongTimeout
            self.handshakeTimeout = handshakeTimeout
            self.closeTimeout = closeTimeout
            self.backoff = backoff
        }
    }
}
