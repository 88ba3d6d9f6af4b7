// SPDX-License-Identifier: MIT

import NIOCore
import NIOWebSocket

extension FakePusherServer {
    /// Where the server's frames to one connection go: the outbox of a loopback WebSocket, or the
    /// server's end of an in-memory connection. The protocol logic is the same for both.
    enum ConnectionSink: Sendable {
        /// A loopback WebSocket: frames wait in `outbox` for the connection's writer.
        case loopback(outbox: AsyncStream<WebSocketFrame>.Continuation, channel: any Channel, budget: OutboxBudget)
        /// An in-memory connection (see ``FakePusherServer/transport``): the server plays its peer.
        case inMemory(InMemoryPeer)

        /// Sends one text message.
        func send(_ text: String) {
            switch self {
            case .loopback(let outbox, let channel, let budget):
                Self.queue(
                    WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)), outbox, channel, budget)
            case .inMemory(let peer):
                peer.send(text)
            }
        }

        /// Sends a text frame of arbitrary bytes. In memory there are no frames to carry bytes: they
        /// arrive decoded as a WebSocket client decodes a text frame, invalid UTF-8 replaced by U+FFFD.
        func send(bytes: [UInt8]) {
            switch self {
            case .loopback(let outbox, let channel, let budget):
                Self.queue(
                    WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes)), outbox, channel, budget)
            case .inMemory(let peer):
                peer.send(String(decoding: bytes, as: UTF8.self))
            }
        }

        /// Sends a binary frame (in memory, a binary message without its bytes: clients ignore them).
        func sendBinary(_ bytes: [UInt8]) {
            switch self {
            case .loopback(let outbox, let channel, let budget):
                Self.queue(
                    WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: bytes)), outbox, channel, budget)
            case .inMemory(let peer):
                peer.sendBinary()
            }
        }

        /// Queues a frame for a loopback connection; a client too slow to keep its queue under
        /// ``Limits/queuedFrames`` and ``Limits/queuedBytes`` is disconnected.
        private static func queue(
            _ frame: WebSocketFrame, _ outbox: AsyncStream<WebSocketFrame>.Continuation, _ channel: any Channel,
            _ budget: OutboxBudget
        ) {
            guard budget.add(frame.length) else {
                outbox.finish()
                channel.close(promise: nil)
                return
            }
            if case .dropped = outbox.yield(frame) {
                outbox.finish()
                channel.close(promise: nil)
            }
        }

        /// Pings with a WebSocket ping frame (only a loopback WebSocket has control frames).
        func ping() {
            guard case .loopback(let outbox, _, _) = self else { return }
            outbox.yield(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "pusher")))
        }

        /// Answers a WebSocket ping (only a loopback WebSocket has control frames).
        func pong(_ data: ByteBuffer) {
            guard case .loopback(let outbox, _, _) = self else { return }
            outbox.yield(WebSocketFrame(fin: true, opcode: .pong, data: data))
        }

        /// Sends a close frame with `code` and `reason`. On loopback the connection ends once the
        /// client answers; in memory the close is complete at once.
        func close(code: Int, reason: String) {
            switch self {
            case .loopback(let outbox, _, _):
                var data = ByteBuffer()
                data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
                data.writeString(reason)
                outbox.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            case .inMemory(let peer):
                peer.close(code: code, reason: reason.isEmpty ? nil : reason)
            }
        }

        /// Ends a loopback connection after the close handshake: nothing more is written.
        func finish() {
            guard case .loopback(let outbox, _, _) = self else { return }
            outbox.finish()
        }

        /// Ends the connection without a close frame, like a network failure.
        func drop() {
            switch self {
            case .loopback(let outbox, let channel, _):
                outbox.finish()
                channel.close(promise: nil)
            case .inMemory(let peer):
                peer.drop()
            }
        }
    }
}
