// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PusherChannelsTesting
import Testing

/// A TCP listener on 127.0.0.1 that never answers, standing in for a server or middlebox that
/// leaves a client in its handshake: it accepts connections and reads what arrives (a TLS
/// ClientHello, a WebSocket upgrade request) but sends nothing, and records when each socket
/// closes. With `accepting: false` it accepts nothing and its backlog is full (one connection it
/// made itself waits there), so a client's TCP handshake goes unanswered too. With `tls: true` it
/// completes TLS (the test CA's `localhost` certificate) and is silent above it.
final class SilentServer: Sendable {
    /// One accepted socket as the server saw it.
    struct Connection: Sendable {
        /// The first bytes the client sent (at most 8).
        var firstBytes: [UInt8] = []
        var isClosed = false
    }

    let port: Int
    private let listener: any Channel
    private let filler: (any Channel)?
    /// Every accepted socket, in order of acceptance.
    let connections: Observed<[Connection]>
    private let accepted: NIOLockedValueBox<[any Channel]>

    private init(
        listener: any Channel, filler: (any Channel)?, connections: Observed<[Connection]>,
        accepted: NIOLockedValueBox<[any Channel]>
    ) throws {
        self.listener = listener
        self.filler = filler
        self.connections = connections
        self.accepted = accepted
        self.port = try #require(listener.localAddress?.port)
    }

    static func start(accepting: Bool = true, tls: Bool = false) async throws -> SilentServer {
        let sslContext = try tls ? NIOSSLContext(configuration: Self.tlsConfiguration()) : nil
        let connections = Observed<[Connection]>([])
        let accepted = NIOLockedValueBox<[any Channel]>([])
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: Int32(accepting ? 16 : 0))
            // Without reads, the listening socket never accepts.
            .serverChannelOption(.autoRead, value: accepting)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0.append(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try channel.pipeline.syncOperations.addHandler(Recorder(connections: connections))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        var filler: (any Channel)?
        if !accepting {
            // The kernel completes this one's handshake and queues it: the backlog is then full and
            // later connection requests get no answer.
            filler = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: listener.localAddress?.port ?? 0).get()
        }
        return try SilentServer(listener: listener, filler: filler, connections: connections, accepted: accepted)
    }

    private static func tlsConfiguration() throws -> TLSConfiguration {
        let server = TestCertificates.Server.localhost
        let certificate = try NIOSSLCertificate(bytes: Array(server.certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(server.privateKeyPEM.utf8), format: .pem)
        return .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    }

    /// Closes every accepted socket (so a client stuck on one sees the connection end).
    func closeAccepted() {
        for channel in self.accepted.withLockedValue({ $0 }) { channel.close(promise: nil) }
    }

    /// Stops listening and closes every socket it holds.
    func stop() async {
        self.closeAccepted()
        try? await self.filler?.close()
        try? await self.listener.close()
    }

    /// Records what one accepted socket received and when it closed.
    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let connections: Observed<[Connection]>
        private var index = 0

        init(connections: Observed<[Connection]>) {
            self.connections = connections
        }

        func channelActive(context: ChannelHandlerContext) {
            self.index = self.connections.update { connections in
                connections.append(Connection())
                return connections.count - 1
            }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = self.unwrapInboundIn(data).readableBytesView.prefix(8)
            let index = self.index
            self.connections.update { connections in
                let missing = 8 - connections[index].firstBytes.count
                connections[index].firstBytes += bytes.prefix(max(0, missing))
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let index = self.index
            self.connections.update { $0[index].isClosed = true }
            context.fireChannelInactive()
        }
    }
}
