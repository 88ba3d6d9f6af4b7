// SPDX-License-Identifier: MIT

/// One connection attempt, as the client drives it. Every call returns at once and may be made
/// from any thread, also while the client holds its own lock: the transport never calls back
/// into its ``TransportHandler`` from inside these calls.
package protocol TransportConnection: Sendable {
    /// Queues one text message; messages and the close go out in the order they were queued. When
    /// more than ``TransportConfiguration/outboundBufferLimit`` bytes wait for the socket, the
    /// connection is dropped instead and `connect` throws `limitExceeded`.
    func send(_ text: String)
    /// Starts the close handshake with a normal closure (1000) after what is queued.
    func close()
    /// Drops the connection at once, whatever phase it is in (TCP, TLS, upgrade, open).
    func abort()
    /// Reads again after ``TransportHandler/received(_:)`` returned false; the transport then calls
    /// ``TransportHandler/readingResumed()``.
    func resumeReading()
}
