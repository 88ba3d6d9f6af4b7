// SPDX-License-Identifier: MIT

import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PusherChannels

/// A bare WebSocket client on loopback: it sends text frames as given and reads the server's frames
/// exactly as they arrived, for checks of the wire that a `PusherClient` would interpret.
package struct RawWebSocket {
    /// One frame from the server.
    package enum Frame: Equatable {
        case text(String)
        case close(code: Int?)
    }

    private enum UpgradeResult {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

    /// Opens a WebSocket to `path` (e.g. `/app/KEY?protocol=7`) on `127.0.0.1:port`, runs `body`,
    /// then closes it.
    package static func withConnection<Result>(
        port: Int, path: String, _ body: (inout RawWebSocket) async throws -> Result
    ) async throws -> Result {
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeResult>(
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                UpgradeResult.websocket(
                                    try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                                        wrappingChannelSynchronously: channel))
                            }
                        })
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<UpgradeResult>(
                        upgradeRequestHead: HTTPRequestHead(
                            version: .http1_1, method: .GET, uri: path, headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture { UpgradeResult.refused }
                        })
                    // Frames the server sends right behind its 101 answer arrive with it: kept.
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: pipeline)
                }
            }
        guard case .websocket(let channel) = try await upgrade.get() else {
            throw PusherError(.transportFailed, "the server refused the WebSocket upgrade")
        }
        return try await channel.executeThenClose { inbound, outbound in
            var socket = RawWebSocket(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&socket)
        }
    }

    /// The next text or close frame (pings and pongs skipped; a close frame is answered); nil once
    /// the connection ended.
    package mutating func next() async throws -> Frame? {
        while let frame = try await self.inbound.next() {
            switch frame.opcode {
            case .text:
                return .text(String(buffer: frame.unmaskedData))
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readInteger(as: UInt16.self)
                // Completes the close handshake, as a client does.
                var answer = ByteBuffer()
                if let code { answer.writeInteger(code) }
                try? await self.outbound.write(
                    WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: answer))
                return .close(code: code.map(Int.init))
            default:
                continue
            }
        }
        return nil
    }

    /// The next text frame; nil when a close frame or the end came first.
    package mutating func nextText() async throws -> String? {
        guard case .text(let text)? = try await self.next() else { return nil }
        return text
    }

    /// The next text frame whose event is `event` (others skipped); nil when none came.
    package mutating func next(event: String) async throws -> String? {
        while let text = try await self.nextText() {
            if (try? JSONValue(parsing: text))?["event"]?.stringValue == event { return text }
        }
        return nil
    }

    /// Sends a frame exactly as given (unmasked, a fragment, bytes that are not UTF-8).
    package func send(frame: WebSocketFrame) async throws {
        try await self.outbound.write(frame)
    }

    /// Sends one text frame, masked as a client must.
    package func send(_ text: String) async throws {
        try await self.outbound.write(
            WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
    }
}
