// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A plain TCP connection to a loopback port, for peers that misbehave on purpose: it writes what
/// the test says (half a request head, a body that never ends, nothing at all) and records what it
/// receives.
final class RawTCPConnection: Sendable {
    private let channel: any Channel
    private let received: NIOLockedValueBox<[UInt8]>

    private init(channel: any Channel, received: NIOLockedValueBox<[UInt8]>) {
        (self.channel, self.received) = (channel, received)
    }

    /// Connects to `127.0.0.1:port`.
    static func connect(port: Int) async throws -> RawTCPConnection {
        let received = NIOLockedValueBox<[UInt8]>([])
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Recorder(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawTCPConnection(channel: channel, received: received)
    }

    /// Writes `text`; a connection the peer closed meanwhile is not an error here.
    func send(_ text: String) async {
        try? await self.channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Writes `count` bytes of `x`.
    func send(byteCount count: Int) async {
        try? await self.channel.writeAndFlush(ByteBuffer(repeating: UInt8(ascii: "x"), count: count)).get()
    }

    /// What arrived so far, as text.
    var receivedText: String { String(decoding: self.received.withLockedValue { $0 }, as: UTF8.self) }

    var isOpen: Bool { self.channel.isActive }

    /// Whether the peer closed the connection within `timeout` (checked every 20 ms).
    func closedByPeer(within timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while self.channel.isActive {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    func close() async {
        try? await self.channel.close()
    }

    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<[UInt8]>

        init(received: NIOLockedValueBox<[UInt8]>) {
            self.received = received
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = self.unwrapInboundIn(data)
            self.received.withLockedValue { $0 += buffer.readableBytesView }
        }
    }
}
