// SPDX-License-Identifier: MIT

import NIOCore
import NIOEmbedded
import PusherCore
import Testing

@testable import PusherChannels

/// The proxy handshakes byte by byte, in an embedded channel: what the handlers behind the tunnel
/// (TLS, the WebSocket upgrade) see, and in which order.
@Suite("Proxies: the SOCKS5 and CONNECT handshakes in an embedded channel", .timeLimit(.minutes(1)))
struct ProxyHandshakeTests {
    /// Stands for the handlers behind the tunnel: notes what reaches them.
    final class Behind: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var events: [String] = []
        var errors: [PusherError] = []

        func channelActive(context: ChannelHandlerContext) {
            self.events.append("active")
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            self.events.append("read \(String(buffer: self.unwrapInboundIn(data)))")
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            self.events.append("error")
            if let error = error as? PusherError { self.errors.append(error) }
        }
    }

    /// An embedded channel with the handshake handlers for `proxy` (to `ws.example:443`) and a
    /// ``Behind`` after them, connected (so the handshake starts).
    static func tunnel(_ proxy: PusherProxy, timeout: Duration = .seconds(10)) throws -> (EmbeddedChannel, Behind) {
        let channel = EmbeddedChannel()
        let behind = Behind()
        try ProxyTunnel.addHandlers(
            for: proxy, toHost: "ws.example", port: 443, pipeline: channel.pipeline.syncOperations,
            eventLoop: channel.eventLoop, timeout: timeout)
        try channel.pipeline.syncOperations.addHandler(behind)
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1080), promise: nil)
        return (channel, behind)
    }

    /// What the client wrote, as bytes.
    static func written(_ channel: EmbeddedChannel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        return bytes
    }

    static func read(_ channel: EmbeddedChannel, _ bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    static let socks = PusherProxy(.socks5, host: "127.0.0.1", port: 1080)

    @Test(
        "a SOCKS5 reply sent one byte at a time, with an IPv4, domain name or IPv6 bound address, opens the tunnel",
        arguments: [
            [0x01, 10, 0, 0, 1],
            [0x03, 9] + Array("proxy.lan".utf8),
            [0x04] + [UInt8](repeating: 0, count: 15) + [1],
        ] as [[UInt8]])
    func socksReplyByteByByte(_ address: [UInt8]) throws {
        let (channel, behind) = try Self.tunnel(Self.socks)
        #expect(try Self.written(channel) == [5, 1, 0])
        for byte in [5, 0] as [UInt8] { try Self.read(channel, [byte]) }
        #expect(try Self.written(channel) == [5, 1, 0, 3, 10] + Array("ws.example".utf8) + [1, 187])
        let reply: [UInt8] = [5, 0, 0] + address + [0x1F, 0x90]
        for byte in reply.dropLast() { try Self.read(channel, [byte]) }
        #expect(behind.events.isEmpty, "not open before the reply's last byte")
        try Self.read(channel, [reply.last!])
        #expect(behind.events == ["active"])
        try Self.read(channel, Array("HTTP/1.1 101".utf8))
        #expect(behind.events == ["active", "read HTTP/1.1 101"])
        _ = try? channel.finish()
    }

    @Test("the server's first bytes in the same read as the SOCKS5 reply reach the handlers behind after active")
    func socksReplyWithServerBytes() throws {
        let (channel, behind) = try Self.tunnel(Self.socks)
        try Self.read(channel, [5, 0])
        try Self.read(channel, [5, 0, 0, 1, 10, 0, 0, 1, 0x1F, 0x90] + Array("hello".utf8))
        #expect(behind.events == ["active", "read hello"])
        _ = try? channel.finish()
    }

    @Test(
        "a reply that is not SOCKS5 (or an RFC 1929 answer of another version) is proxyFailed naming the version",
        arguments: [
            ([5, 0], [4, 0, 0, 1, 10, 0, 0, 1, 0, 80], "not SOCKS5 (version 0x04)"),
            ([5, 2], [2, 0], "not RFC 1929 (version 0x02)"),
        ] as [([UInt8], [UInt8], String)])
    func socksVersionChecked(_ method: [UInt8], _ answer: [UInt8], _ expected: String) throws {
        let proxy = PusherProxy(.socks5, host: "127.0.0.1", port: 1080, username: "u", password: "p")
        let (channel, behind) = try Self.tunnel(proxy)
        try Self.read(channel, method)
        try Self.read(channel, answer)
        #expect(!behind.events.contains("active"))
        #expect(behind.errors.map(\.code) == [.proxyFailed])
        #expect(behind.errors.first?.message.contains(expected) == true, "\(behind.errors)")
        _ = try? channel.finish()
    }

    @Test("a refused CONNECT lets go of its handler once the handshake timeout passed (no timer kept forever)")
    func refusedConnectReleasesHandler() throws {
        let http = PusherProxy(.httpConnect, host: "127.0.0.1", port: 3128)
        weak var handler: (any ChannelHandler)?
        do {
            let (channel, behind) = try Self.tunnel(http, timeout: .seconds(10))
            handler = try channel.pipeline.syncOperations.context(name: ProxyTunnel.connectHandlerName).handler
            _ = try Self.written(channel)
            try Self.read(
                channel, Array("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n".utf8))
            #expect(behind.errors.map(\.httpStatus) == [407])
            #expect(!channel.isActive, "closed after the refusal")
            channel.embeddedEventLoop.advanceTime(by: .seconds(10))
            _ = try? channel.finish()
            // Checked while the channel (and its event loop's scheduled tasks) still lives.
            #expect(handler == nil, "the CONNECT handler is freed")
        }
    }

    @Test("a proxy's reason phrase shows without control characters, cut to 64 characters")
    func reasonPhraseShown() {
        #expect(ProxyTunnelGate.shown("Forbidden") == "Forbidden")
        #expect(ProxyTunnelGate.shown("Bad\u{1B}[31m\u{07}Gateway") == "Bad[31mGateway")
        #expect(ProxyTunnelGate.shown(String(repeating: "x", count: 80_000)) == String(repeating: "x", count: 64) + "…")
    }
}
