// SPDX-License-Identifier: MIT

import PusherCore

/// What a transport tells the client about one connection. Called on the transport's own thread
/// (a NIO event loop), never from inside a ``TransportConnection`` call.
package protocol TransportHandler: Sendable {
    /// The attempt began: `connection` is how the client writes to it, closes or aborts it.
    func attemptStarted(_ connection: any TransportConnection)
    /// The WebSocket is open.
    func opened()
    /// The messages of one read, decoded and in order. Returns false when the transport must stop
    /// reading until ``TransportConnection/resumeReading()`` (a consumer is behind: flow control).
    func received(_ messages: [InboundMessage]) -> Bool
    /// Reading went on after a pause.
    func readingResumed()
}
