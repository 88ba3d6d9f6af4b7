// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PusherChannels

/// An in-process proxy on a free loopback port, written from the RFCs for these tests: an HTTP
/// proxy (`CONNECT` tunnels, and absolute-URI requests for plain http) or a SOCKS5 proxy (no
/// authentication or RFC 1929 username/password). It can require credentials or refuse, and
/// records what each client asked for.
package final class TestProxy: Sendable {
    package enum Behaviour: Sendable {
        /// An HTTP proxy; with `credentials`, a request without the matching Basic
        /// `Proxy-Authorization` gets 407; with `refusal`, every request gets that status.
        case http(credentials: (String, String)? = nil, refusal: Int? = nil)
        /// A SOCKS5 proxy; with `credentials`, only the username/password method is accepted;
        /// with `reply`, every request gets that failure reply. A success reply carries
        /// `boundAddress` (address type and address) and is sent one byte per write with `bytewise`.
        case socks5(
            credentials: (String, String)? = nil, reply: UInt8? = nil, boundAddress: [UInt8] = [1, 127, 0, 0, 1],
            bytewise: Bool = false)
        /// Takes the connection and never answers (an HTTP proxy URL points at it).
        case stall
        /// Answers the first bytes with `answer` and closes (an HTTP proxy URL points at it).
        case raw(answer: [UInt8])
    }

    package struct Seen: Sendable {
        /// Connections accepted.
        package var connections = 0
        /// Connections that ended (closed by either side).
        package var closed = 0
        /// What each client asked to reach: `host:port` of a CONNECT or SOCKS5 request, or the
        /// request line of an absolute-URI request.
        package var targets: [String] = []
        /// SOCKS5 address types of the requests (1 IPv4, 3 domain name, 4 IPv6).
        package var addressTypes: [UInt8] = []
        /// `Proxy-Authorization` headers, or `user:pass` of the SOCKS5 sub-negotiation.
        package var credentials: [String] = []
        /// Tunnels opened to the target.
        package var tunnels = 0
    }

    package let port: Int
    private let behaviour: Behaviour
    private let seen = NIOLockedValueBox(Seen())
    /// Every socket of the proxy, closed when it stops (a kept-alive client connection included).
    private let sockets = NIOLockedValueBox<[any Channel]>([])

    private init(port: Int, behaviour: Behaviour) {
        self.port = port
        self.behaviour = behaviour
    }

    package var snapshot: Seen { self.seen.withLockedValue { $0 } }

    /// The proxy's URL, with `user:pass@` when given.
    package func url(credentials: String? = nil) -> String {
        let scheme = if case .socks5 = self.behaviour { "socks5" } else { "http" }
        return "\(scheme)://\(credentials.map { "\($0)@" } ?? "")127.0.0.1:\(self.port)"
    }

    /// Waits (bounded: real sockets) until `condition` holds for what the proxy saw.
    package func waitUntil(_ condition: (Seen) -> Bool) async throws {
        for _ in 0..<1000 where !condition(self.snapshot) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    package static func withRunning<Result: Sendable>(
        _ behaviour: Behaviour, _ body: (TestProxy) async throws -> Result
    ) async throws -> Result {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw PusherError(.transportFailed, "the test proxy could not read its own port")
        }
        let proxy = TestProxy(port: port, behaviour: behaviour)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            proxy.seen.withLockedValue { $0.connections += 1 }
                            proxy.sockets.withLockedValue { $0.append(connection.channel) }
                            connections.addTask { try? await proxy.serve(connection) }
                        }
                    }
                }
            }
            defer {
                listener.channel.close(promise: nil)
                for socket in proxy.sockets.withLockedValue({ $0 }) { socket.close(promise: nil) }
                group.cancelAll()
            }
            return try await body(proxy)
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        defer { self.seen.withLockedValue { $0.closed += 1 } }
        try await connection.executeThenClose { inbound, outbound in
            var reader = ByteReader(iterator: inbound.makeAsyncIterator())
            let tunnel: (host: String, port: Int, firstBytes: ByteBuffer)?
            switch self.behaviour {
            case .http(let credentials, let refusal):
                tunnel = try await self.httpHandshake(&reader, outbound, credentials: credentials, refusal: refusal)
            case .socks5(let credentials, let reply, let boundAddress, let bytewise):
                tunnel = try await self.socksHandshake(
                    &reader, outbound, credentials: credentials, reply: reply,
                    success: [5, 0, 0] + boundAddress + [0, 0],
                    bytewise: bytewise)
            case .stall:
                while try await reader.iterator.next() != nil {}
                tunnel = nil
            case .raw(let answer):
                _ = try await reader.iterator.next()
                try await outbound.write(ByteBuffer(bytes: answer))
                tunnel = nil
            }
            guard let tunnel else { return }
            let target = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: tunnel.host, port: tunnel.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            self.seen.withLockedValue { $0.tunnels += 1 }
            self.sockets.withLockedValue { $0.append(target.channel) }
            // Either side ending closes both.
            try await target.executeThenClose { targetInbound, targetOutbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { connection.channel.close(promise: nil) }
                        for try await bytes in targetInbound { try await outbound.write(bytes) }
                    }
                    defer { target.channel.close(promise: nil) }
                    if tunnel.firstBytes.readableBytes > 0 { try await targetOutbound.write(tunnel.firstBytes) }
                    if reader.pending.readableBytes > 0 { try await targetOutbound.write(reader.pending) }
                    while let bytes = try await reader.iterator.next() { try await targetOutbound.write(bytes) }
                }
            }
        }
    }

    private func answer(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, _ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    private func httpHandshake(
        _ reader: inout ByteReader, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        credentials: (String, String)?, refusal: Int?
    ) async throws -> (host: String, port: Int, firstBytes: ByteBuffer)? {
        guard let head = try await reader.head() else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        self.seen.withLockedValue { seen in
            seen.targets.append(requestLine[0] == "CONNECT" ? String(requestLine[1]) : lines[0])
            if let authorization { seen.credentials.append(authorization) }
        }
        if let refusal {
            try await self.answer(outbound, "HTTP/1.1 \(refusal) Refused\r\nContent-Length: 0\r\n\r\n")
            return nil
        }
        if let (user, password) = credentials,
            authorization != "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        {
            try await self.answer(
                outbound,
                "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 6\r\n\r\ndenied"
            )
            return nil
        }
        if requestLine[0] == "CONNECT" {
            let (host, port) = Self.split(String(requestLine[1]))
            try await self.answer(outbound, "HTTP/1.1 200 Connection established\r\n\r\n")
            return (host, port, ByteBuffer())
        }
        // An absolute-URI request: forwarded in origin form.
        let url = URL(string: String(requestLine[1]))!
        let origin = "\(requestLine[0]) \(url.path.isEmpty ? "/" : url.path) \(requestLine[2])"
        let forwarded = ([origin] + lines.dropFirst()).joined(separator: "\r\n") + "\r\n\r\n"
        return (url.host!, url.port ?? 80, ByteBuffer(string: forwarded))
    }

    private func socksHandshake(
        _ reader: inout ByteReader, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        credentials: (String, String)?, reply: UInt8?, success: [UInt8], bytewise: Bool
    ) async throws -> (host: String, port: Int, firstBytes: ByteBuffer)? {
        guard let greeting = try await reader.bytes(2), greeting[0] == 5,
            let methods = try await reader.bytes(Int(greeting[1]))
        else { return nil }
        if let (user, password) = credentials {
            guard methods.contains(2) else {
                try await outbound.write(ByteBuffer(bytes: [5, 0xFF]))
                return nil
            }
            try await outbound.write(ByteBuffer(bytes: [5, 2]))
            guard let version = try await reader.bytes(2), version[0] == 1,
                let userBytes = try await reader.bytes(Int(version[1])), let passwordLength = try await reader.bytes(1),
                let passwordBytes = try await reader.bytes(Int(passwordLength[0]))
            else { return nil }
            let given = (String(decoding: userBytes, as: UTF8.self), String(decoding: passwordBytes, as: UTF8.self))
            self.seen.withLockedValue { $0.credentials.append("\(given.0):\(given.1)") }
            guard given == (user, password) else {
                try await outbound.write(ByteBuffer(bytes: [1, 1]))
                return nil
            }
            try await outbound.write(ByteBuffer(bytes: [1, 0]))
        } else {
            guard methods.contains(0) else {
                try await outbound.write(ByteBuffer(bytes: [5, 0xFF]))
                return nil
            }
            try await outbound.write(ByteBuffer(bytes: [5, 0]))
        }
        guard let request = try await reader.bytes(4), request[0] == 5, request[1] == 1 else { return nil }
        let host: String
        switch request[3] {
        case 1:
            guard let address = try await reader.bytes(4) else { return nil }
            host = address.map(String.init).joined(separator: ".")
        case 3:
            guard let length = try await reader.bytes(1), let name = try await reader.bytes(Int(length[0])) else {
                return nil
            }
            host = String(decoding: name, as: UTF8.self)
        case 4:
            guard let address = try await reader.bytes(16) else { return nil }
            host = try SocketAddress(packedIPAddress: ByteBuffer(bytes: address), port: 0).ipAddress ?? "?"
        default:
            return nil
        }
        guard let portBytes = try await reader.bytes(2) else { return nil }
        let port = Int(portBytes[0]) << 8 | Int(portBytes[1])
        self.seen.withLockedValue {
            $0.targets.append(host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            $0.addressTypes.append(request[3])
        }
        if let reply {
            try await outbound.write(ByteBuffer(bytes: [5, reply, 0, 1, 0, 0, 0, 0, 0, 0]))
            return nil
        }
        if bytewise {
            for byte in success { try await outbound.write(ByteBuffer(bytes: [byte])) }
        } else {
            try await outbound.write(ByteBuffer(bytes: success))
        }
        return (host, port, ByteBuffer())
    }

    private static func split(_ target: String) -> (String, Int) {
        let colon = target.lastIndex(of: ":")!
        var host = String(target[..<colon])
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        return (host, Int(target[target.index(after: colon)...])!)
    }
}
