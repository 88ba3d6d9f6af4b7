// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore

/// The server's end of one in-memory connection: send frames to the client, read what it sent,
/// close or drop the connection.
package final class InMemoryPeer: Sendable {
    private struct State {
        var closeFrame: TransportClose?
        var clientClosed = false
    }

    /// The URL the client connected to.
    package let url: String
    private let mailbox = InboundMailbox()
    private let state = NIOLockedValueBox(State())
    private let sent = ArrivalLog<String>()
    /// Whether the client's writes are stalled.
    private let writesStalled = WaitableState(false)

    init(url: String) {
        self.url = url
    }

    // MARK: Server to client

    /// Sends text messages, delivered to the client as one batch (decoded here, as the real
    /// transport decodes on its reader's thread).
    package func send(_ texts: String...) {
        self.mailbox.put(
            contentsOf: texts.map { InboundMessage(parsing: $0) },
            byteCount: texts.reduce(0) { $0 + $1.utf8.count + InboundMailbox.messageOverhead })
    }

    /// Sends a binary frame.
    package func sendBinary() {
        self.mailbox.put(contentsOf: [.binary], byteCount: InboundMailbox.messageOverhead)
    }

    /// Sends `pusher:connection_established`.
    package func establish(socketID: String = "1.1", activityTimeout: Int = 120) {
        self.send(
            #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":\#(activityTimeout)}"}"#
        )
    }

    /// Closes the connection with a close frame.
    package func close(code: Int, reason: String? = nil) {
        self.state.withLockedValue { $0.closeFrame = TransportClose(code: code, reason: reason) }
        self.mailbox.close()
    }

    /// Ends the connection without a close frame (a reset).
    package func drop() {
        self.mailbox.close()
    }

    /// While stalled, the client's writes do not complete (a server that stops reading).
    package func stallWrites(_ stalled: Bool) {
        self.writesStalled.update { $0 = stalled }
    }

    var closeFrame: TransportClose? { self.state.withLockedValue { $0.closeFrame } }

    // MARK: Client to server

    /// Every text the client sent so far.
    package var received: [String] { self.sent.all }

    /// Whether the client started a close handshake.
    package var clientClosed: Bool { self.state.withLockedValue { $0.clientClosed } }

    /// The next text the client sends (in order; waits until it does).
    package func nextMessage() async -> String {
        await self.sent.next()
    }

    /// The next text the client sends whose event is `event`, skipping others.
    package func nextMessage(named event: String) async -> String {
        while true {
            let text = await self.nextMessage()
            if text.contains(#""event":"\#(event)""#) { return text }
        }
    }

    var clientSide: any TransportConnection { ClientSide(peer: self) }

    private struct ClientSide: TransportConnection {
        let peer: InMemoryPeer

        func receive(isolation: isolated (any Actor)?) async throws -> [InboundMessage]? {
            await self.peer.mailbox.take(isolation: isolation)
        }

        func send(_ text: String) async throws {
            guard await self.peer.writesStalled.wait(until: { $0 ? nil : true }) != nil else {
                throw CancellationError()
            }
            self.peer.sent.append(text)
        }

        func close() async throws {
            // The peer answers a close at once, as a server does.
            self.peer.state.withLockedValue { state in
                state.clientClosed = true
                state.closeFrame = TransportClose(code: 1000, reason: nil)
            }
            self.peer.mailbox.close()
        }
    }
}
