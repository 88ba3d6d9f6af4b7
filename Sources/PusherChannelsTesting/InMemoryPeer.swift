// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels
import PusherCore

/// The server's end of one in-memory connection: send frames to the client, read what it sent,
/// close or drop the connection.
package final class InMemoryPeer: Sendable {
    private struct State {
        var sent: [String] = []
        var read = 0
        var waiter: CheckedContinuation<Void, Never>?
        var closeFrame: TransportClose?
        var clientClosed = false
    }

    /// The URL the client connected to.
    package let url: String
    private let mailbox = InboundMailbox()
    private let state = NIOLockedValueBox(State())

    init(url: String) {
        self.url = url
    }

    // MARK: Server to client

    /// Sends text messages, delivered to the client as one batch.
    package func send(_ texts: String...) {
        self.mailbox.put(contentsOf: texts.map { .text($0) })
    }

    /// Sends a binary frame.
    package func sendBinary() {
        self.mailbox.put(contentsOf: [.binary])
    }

    /// Sends `pusher:connection_established`.
    package func establish(socketID: String = "1.1", activityTimeout: Int = 120) {
        self.send(#"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":\#(activityTimeout)}"}"#)
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

    var closeFrame: TransportClose? { self.state.withLockedValue { $0.closeFrame } }

    // MARK: Client to server

    /// Every text the client sent so far.
    package var received: [String] { self.state.withLockedValue { $0.sent } }

    /// Whether the client started a close handshake.
    package var clientClosed: Bool { self.state.withLockedValue { $0.clientClosed } }

    /// The next text the client sends (in order; waits until it does).
    package func nextMessage() async -> String {
        while true {
            let next = self.state.withLockedValue { state -> String? in
                guard state.read < state.sent.count else { return nil }
                state.read += 1
                return state.sent[state.read - 1]
            }
            if let next { return next }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = self.state.withLockedValue { state -> Bool in
                    guard state.read >= state.sent.count else { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
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

        func receive() async throws -> [ClientEngine.InboundFrame]? {
            await self.peer.mailbox.take()
        }

        func send(_ text: String) async throws {
            let waiter = self.peer.state.withLockedValue { state in
                state.sent.append(text)
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
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
