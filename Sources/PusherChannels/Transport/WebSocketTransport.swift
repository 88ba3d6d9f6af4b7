// SPDX-License-Identifier: MIT

import Logging
import NIOCore
import NIOWebSocket
import PusherCore
import WSClient

/// The real transport: hummingbird-project's swift-websocket client over SwiftNIO (TLS through
/// NIOSSL). A reader child task moves inbound messages into an ``InboundMailbox``, from which the
/// client takes them a batch at a time.
package struct WebSocketTransport: PusherTransport {
    package init() {}

    package func connect(
        to url: String,
        configuration: TransportConfiguration,
        session: @Sendable (any TransportConnection) async throws -> Void
    ) async throws -> TransportClose? {
        // UTF-8 is not validated by the socket: a strict check would close the whole connection
        // over one bad frame. Invalid bytes become U+FFFD and only that message is affected.
        let socketConfiguration = WebSocketClientConfiguration(
            maxFrameSize: configuration.maximumMessageSize,
            closeTimeout: configuration.closeTimeout
        )
        let maximumMessageSize = configuration.maximumMessageSize
        let logger = configuration.logger ?? Logger(label: "pusher-channels", factory: { _ in SwiftLogNoOpLogHandler() })
        // `WebSocketClient.connect` takes an escaping closure; `session` is not, but it is only
        // called while `connect` runs, which this function awaits.
        return try await withoutActuallyEscaping(session) { session in
            let closeFrame = try await WebSocketClient.connect(
                url: url,
                configuration: socketConfiguration,
                tlsConfiguration: configuration.tlsConfiguration,
                logger: logger
            ) { inbound, outbound, _ in
                let connection = Connection(outbound: outbound)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { connection.mailbox.close() }
                        for try await message in inbound.messages(maxSize: maximumMessageSize) {
                            switch message {
                            case .text(let text): connection.mailbox.put(.text(text))
                            case .binary: connection.mailbox.put(.binary)
                            }
                        }
                    }
                    try await session(connection)
                    group.cancelAll()
                }
            }
            return closeFrame.map { TransportClose(code: Int(UInt16(webSocketErrorCode: $0.closeCode)), reason: $0.reason) }
        }
    }

    private struct Connection: TransportConnection {
        let outbound: WebSocketOutboundWriter
        let mailbox = InboundMailbox()

        func receive() async throws -> [ClientEngine.InboundFrame]? {
            await self.mailbox.take()
        }

        func send(_ text: String) async throws {
            try await self.outbound.write(.text(text))
        }

        func close() async throws {
            try await self.outbound.close(.normalClosure, reason: nil)
        }
    }
}
