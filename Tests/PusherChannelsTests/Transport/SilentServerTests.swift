// SPDX-License-Identifier: MIT

import Logging
import PusherChannels
import PusherChannelsTesting
import ServiceLifecycle
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A server that accepts TCP (or not even that) and never answers leaves the client in one phase
/// of connecting. Whatever the phase, stopping the client must not wait for the server, and no
/// socket may stay open. Real loopback sockets: the point is what happens to them.
@Suite("Connecting to a server that never answers", .timeLimit(.minutes(2)))
struct SilentServerTests {
    /// Where the client is stuck.
    enum Phase: String, Sendable, CaseIterable {
        /// Its TCP handshake gets no answer (the server's backlog is full).
        case tcpConnect
        /// TCP is up; the server never answers the TLS ClientHello.
        case tlsHandshake
        /// TCP is up; the server never answers the WebSocket upgrade request.
        case upgrade
        /// TCP and TLS are up; the server never answers the WebSocket upgrade request.
        case upgradeOverTLS

        var useTLS: Bool { self == .tlsHandshake || self == .upgradeOverTLS }
    }

    /// How the client is stopped.
    enum Stop: String, Sendable, CaseIterable {
        case cancelRun
        case shutdown
        /// The client runs as a service; its ServiceGroup shuts down gracefully.
        case serviceGroup
    }

    /// How long something that should happen at once may take on a loaded machine. The client
    /// under test, unfixed, takes 10 s (NIO's connect timeout) or forever.
    static let promptly = Duration.seconds(5)

    static func client(port: Int, useTLS: Bool, clock: VirtualClock) throws -> PusherClient {
        var options = PusherClientConfiguration(host: "127.0.0.1", port: port, useTLS: useTLS)
        options.backoff.jitter = 0
        try options.trustCertificateAuthorities(pem: TestCertificates.certificateAuthorityPEM)
        return PusherClient(key: "app-key", configuration: options, clock: clock)
    }

    /// Waits until the server has as many connections as `count` and each has sent its first
    /// bytes: a TLS handshake record when the server does not speak TLS, else the upgrade request.
    static func expectHandshakesStarted(_ server: SilentServer, count: Int, clientHello: Bool) async -> Bool {
        let prefix: [UInt8] = clientHello ? [0x16] : Array("GET ".utf8)
        let started = await server.connections.wait(within: Self.promptly) { connections in
            connections.count == count && connections.allSatisfy { $0.firstBytes.starts(with: prefix) }
        }
        #expect(started, "\(count) connection(s) that sent \(clientHello ? "a ClientHello" : "the upgrade request")")
        return started
    }

    @Test(
        "stopping a client stuck connecting returns at once and leaves no socket open",
        arguments: Phase.allCases, Stop.allCases)
    func stopWhileConnecting(phase: Phase, stop: Stop) async throws {
        let server = try await SilentServer.start(accepting: phase != .tcpConnect, tls: phase == .upgradeOverTLS)
        let client = try Self.client(port: server.port, useTLS: phase.useTLS, clock: VirtualClock())
        let services = ServiceGroup(
            configuration: .init(
                services: [client], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
        let runEnded = Observed(false)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                if stop == .serviceGroup { try? await services.run() } else { try? await client.run() }
                runEnded.update { $0 = true }
            }
            if phase == .tcpConnect {
                // Nothing reaches the server: wait until the client is connecting.
                for await state in client.connectionStates where state == .connecting(attempt: 0) { break }
            } else {
                guard await Self.expectHandshakesStarted(server, count: 1, clientHello: phase == .tlsHandshake) else {
                    group.cancelAll()
                    return server.closeAccepted()
                }
            }
            switch stop {
            case .cancelRun: group.cancelAll()
            case .shutdown: client.shutdown()
            case .serviceGroup: await services.triggerGracefulShutdown()
            }
            let returned = await runEnded.wait(within: Self.promptly) { $0 }
            #expect(returned, "run() returned at once")
            let closed = await server.connections.wait(within: Self.promptly) { $0.allSatisfy(\.isClosed) }
            #expect(closed, "the server saw every socket close")
            #expect(server.connections.value.count == (phase == .tcpConnect ? 0 : 1))
            // A client that hangs on the socket ends when the server closes it, so the test ends.
            server.closeAccepted()
        }
        if phase == .tcpConnect, let attempts = server.pendingConnectionAttempts() {
            #expect(attempts == 0, "no socket of the client still waits for the server's SYN-ACK")
        }
        await server.stop()
    }

    @Test("handshake timeouts close each socket they give up on", arguments: [false, true])
    func repeatedHandshakeTimeouts(useTLS: Bool) async throws {
        let server = try await SilentServer.start()
        let clock = VirtualClock()
        let client = try Self.client(port: server.port, useTLS: useTLS, clock: clock)
        let runEnded = Observed(false)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await client.run()
                runEnded.update { $0 = true }
            }
            // Ends a client that hangs (so a failing test still ends); no-op for one that works.
            defer {
                client.shutdown()
                server.closeAccepted()
            }
            for attempt in 1...3 {
                guard await Self.expectHandshakesStarted(server, count: attempt, clientHello: useTLS) else { return }
                // The one timer task waits for the handshake timeout (10 s); nothing else is scheduled.
                await clock.waitForDeadlines([clock.now.offset + .seconds(10)])
                clock.advance(by: .seconds(10))
                let closed = await server.connections.wait(within: Self.promptly) { $0.allSatisfy(\.isClosed) }
                #expect(closed, "attempt \(attempt): the timed-out socket was closed")
                guard closed else { return }
                // The reconnect timer: 1 s, then 2 s, then 4 s.
                let delay = Duration.seconds(1 << (attempt - 1))
                await clock.waitForDeadlines([clock.now.offset + delay])
                clock.advance(by: delay)
            }
            #expect(await Self.expectHandshakesStarted(server, count: 4, clientHello: useTLS))
            client.shutdown()
            #expect(await runEnded.wait(within: Self.promptly) { $0 }, "run() returned at once")
            #expect(await server.connections.wait(within: Self.promptly) { $0.allSatisfy(\.isClosed) })
        }
        await server.stop()
    }
}

extension SilentServer {
    /// How many TCP sockets on this machine wait for this server to answer their SYN (Linux only:
    /// read from /proc/net/tcp; nil elsewhere).
    func pendingConnectionAttempts() -> Int? {
        #if os(Linux)
        guard let data = FileManager.default.contents(atPath: "/proc/net/tcp"),
            let table = String(data: data, encoding: .utf8)
        else { return nil }
        let port = String(self.port, radix: 16, uppercase: true)
        let remote = ":" + String(repeating: "0", count: max(0, 4 - port.count)) + port
        // Columns: sl, local_address, rem_address, st (02 is SYN_SENT), …
        return table.split(separator: "\n").dropFirst().count { line in
            let columns = line.split(separator: " ")
            return columns.count > 3 && columns[2].hasSuffix(remote) && columns[3] == "02"
        }
        #else
        return nil
        #endif
    }
}
