// SPDX-License-Identifier: MIT

import PusherCore

/// One open WebSocket, as the client uses it.
package protocol TransportConnection: Sendable {
    /// Every message that arrived since the last call, decoded and in order, at least one;
    /// suspends while there is none; nil once the connection has closed. Runs on `isolation` (the
    /// caller's actor): a batch goes from the reader to the caller without a hop in between.
    func receive(isolation: isolated (any Actor)?) async throws -> [InboundMessage]?
    /// Sends one text message.
    func send(_ text: String) async throws
    /// Starts the close handshake with a normal closure (1000).
    func close() async throws
}
