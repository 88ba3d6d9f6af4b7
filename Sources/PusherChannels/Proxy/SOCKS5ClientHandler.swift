// SPDX-License-Identifier: MIT

import NIOCore
import PusherCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a tunnel through a SOCKS5 proxy (RFC 1928): offers "no authentication" and, with a
/// username, the username/password method (RFC 1929), then asks for a connection to the server
/// by name (the proxy resolves it) or by IP address. NIOSOCKS's client handler has no
/// username/password method, hence this one. Succeeds `opened` and leaves the pipeline once the
/// proxy agrees; a refusal is a `proxyFailed` error naming the proxy's reply.
final class SOCKS5ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case idle, awaitingMethod, awaitingAuthentication, awaitingReply, open, failed
    }

    private let proxy: PusherProxy
    private let host: String
    private let port: Int
    private let opened: EventLoopPromise<Void>
    private var state = State.idle
    private var received: ByteBuffer?

    init(proxy: PusherProxy, host: String, port: Int, opened: EventLoopPromise<Void>) {
        self.proxy = proxy
        self.host = host
        self.port = port
        self.opened = opened
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.greet(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if self.state != .open { self.opened.fail(PusherError(.proxyFailed, "the \(self.proxy.name) handshake ended")) }
    }

    func channelActive(context: ChannelHandlerContext) {
        self.greet(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if self.state != .open && self.state != .failed {
            self.fail(
                context: context, "the \(self.proxy.name) closed the connection during the SOCKS5 handshake")
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = self.unwrapInboundIn(data)
        guard self.state != .open else { return context.fireChannelRead(data) }
        guard self.state != .failed else { return }
        if var received = self.received.take() {
            received.writeBuffer(&bytes)
            self.received = received
        } else {
            self.received = bytes
        }
        self.advance(context: context)
    }

    private func greet(context: ChannelHandlerContext) {
        guard self.state == .idle else { return }
        self.state = .awaitingMethod
        // Version 5; methods 0x00 (none) and, with a username, 0x02 (username/password).
        let methods: [UInt8] = self.proxy.username == nil ? [0x00] : [0x00, 0x02]
        self.send([0x05, UInt8(methods.count)] + methods, context: context)
    }

    /// Reads what arrived as far as it goes.
    private func advance(context: ChannelHandlerContext) {
        while var buffer = self.received {
            let before = buffer.readerIndex
            let progressed: Bool
            switch self.state {
            case .awaitingMethod: progressed = self.readMethod(&buffer, context: context)
            case .awaitingAuthentication: progressed = self.readAuthentication(&buffer, context: context)
            case .awaitingReply: progressed = self.readReply(&buffer, context: context)
            case .idle, .open, .failed: return
            }
            guard progressed, buffer.readerIndex > before else { return }
            self.received = buffer.readableBytes > 0 ? buffer : nil
            if self.state == .open { return self.finish(context: context) }
        }
    }

    private func readMethod(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) -> Bool {
        guard let version = buffer.readInteger(as: UInt8.self), let method = buffer.readInteger(as: UInt8.self) else {
            return false
        }
        guard version == 0x05 else {
            self.fail(context: context, "the \(self.proxy.name) does not speak SOCKS5 (version byte \(version))")
            return false
        }
        switch method {
        case 0x00:
            self.sendRequest(context: context)
        case 0x02 where self.proxy.username != nil:
            self.state = .awaitingAuthentication
            // Both at most 255 bytes: checked with the configuration (PusherProxy.problem).
            let username = Array((self.proxy.username ?? "").utf8)
            let password = Array((self.proxy.password ?? "").utf8)
            self.send(
                [0x01, UInt8(username.count)] + username + [UInt8(password.count)] + password, context: context)
        case 0xFF where self.proxy.username == nil:
            self.fail(
                context: context,
                "the \(self.proxy.name) accepts no method the client offered: it asks for credentials (give user:pass in the proxy URL)"
            )
        default:
            self.fail(
                context: context,
                "the \(self.proxy.name) accepts no method the client offered (it chose 0x\(Self.hex(method)))")
        }
        return true
    }

    private func readAuthentication(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) -> Bool {
        guard let version = buffer.readInteger(as: UInt8.self), let status = buffer.readInteger(as: UInt8.self) else {
            return false
        }
        // RFC 1929's answer carries the sub-negotiation's version, 0x01.
        guard version == 0x01 else {
            self.fail(
                context: context,
                "the \(self.proxy.name) sent an answer to the username and password that is not RFC 1929 (version 0x\(Self.hex(version)))"
            )
            return false
        }
        guard status == 0x00 else {
            self.fail(
                context: context,
                "the \(self.proxy.name) refused the username and password (RFC 1929 status 0x\(Self.hex(status)))")
            return false
        }
        self.sendRequest(context: context)
        return true
    }

    private func readReply(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) -> Bool {
        // Version, reply, reserved, address type, address, port.
        guard buffer.readableBytes >= 5, let version = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
            let reply = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self),
            let type = buffer.getInteger(at: buffer.readerIndex + 3, as: UInt8.self)
        else { return false }
        guard version == 0x05 else {
            self.fail(
                context: context,
                "the \(self.proxy.name) sent a reply that is not SOCKS5 (version 0x\(Self.hex(version)))")
            return false
        }
        guard reply == 0x00 else {
            self.fail(
                context: context,
                "the \(self.proxy.name) refused the connection to \(self.targetText): reply 0x\(Self.hex(reply)) (\(Self.replyText(reply)))"
            )
            return false
        }
        let addressLength: Int
        switch type {
        case 0x01: addressLength = 4
        case 0x04: addressLength = 16
        case 0x03: addressLength = 1 + Int(buffer.getInteger(at: buffer.readerIndex + 4, as: UInt8.self) ?? 0)
        default:
            self.fail(context: context, "the \(self.proxy.name) sent a reply with address type \(type)")
            return false
        }
        guard buffer.readableBytes >= 4 + addressLength + 2 else { return false }
        buffer.moveReaderIndex(forwardBy: 4 + addressLength + 2)
        self.state = .open
        return true
    }

    private func sendRequest(context: ChannelHandlerContext) {
        self.state = .awaitingReply
        var request: [UInt8] = [0x05, 0x01, 0x00]
        if let address = ProxyEnvironment.ipBytes(self.host) {
            request += [address.count == 4 ? 0x01 : 0x04] + address
        } else {
            // At most 253 bytes: PusherEndpoint refuses longer names, so the length fits its byte.
            let name = Array(self.host.utf8)
            request += [0x03, UInt8(name.count)] + name
        }
        request += [UInt8(self.port >> 8), UInt8(self.port & 0xFF)]
        self.send(request, context: context)
    }

    private func finish(context: ChannelHandlerContext) {
        // Open first: the gate behind then tells TLS and the upgrade the connection is active, so
        // that bytes the server sent right after the reply reach them only after that.
        self.opened.succeed()
        if let rest = self.received {
            self.received = nil
            context.fireChannelRead(self.wrapInboundOut(rest))
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func fail(context: ChannelHandlerContext, _ message: String) {
        self.state = .failed
        self.received = nil
        let error = PusherError(.proxyFailed, message)
        self.opened.fail(error)
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    private func send(_ bytes: [UInt8], context: ChannelHandlerContext) {
        context.writeAndFlush(self.wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }

    private var targetText: String { ProxyTunnel.authority(host: self.host, port: self.port) }

    /// The 4 or 16 bytes of an IP address literal, nil for a name.
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// RFC 1928's words for a reply code.
    private static func replyText(_ reply: UInt8) -> String {
        switch reply {
        case 0x01: "general SOCKS server failure"
        case 0x02: "connection not allowed by ruleset"
        case 0x03: "network unreachable"
        case 0x04: "host unreachable"
        case 0x05: "connection refused"
        case 0x06: "TTL expired"
        case 0x07: "command not supported"
        case 0x08: "address type not supported"
        default: "unassigned reply"
        }
    }
}
