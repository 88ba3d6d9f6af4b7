// SPDX-License-Identifier: MIT

/// What a transport needs to know from the options for each connection. Settings of the transport
/// itself (such as TLS) go into its initializer.
package struct TransportConfiguration: Sendable {
    package var maximumMessageSize: Int
    /// Headers added to the upgrade request (checked: none is the transport's own).
    package var headers: [(name: String, value: String)] = []
    /// The client's handshake timeout: a transport's own handshake steps (a proxy's) end by then.
    package var handshakeTimeout: Duration
    /// How many bytes of queued messages may wait for the socket before the connection is dropped.
    package var outboundBufferLimit: Int

    package init(
        maximumMessageSize: Int, handshakeTimeout: Duration = .seconds(10), outboundBufferLimit: Int = 4 << 20
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.handshakeTimeout = handshakeTimeout
        self.outboundBufferLimit = outboundBufferLimit
    }
}
