// SPDX-License-Identifier: MIT

import NIOConcurrencyHelpers
import PusherChannels

// Connections without sockets: a client given ``transport`` reaches this server through an
// ``InMemoryTransport``, and the server plays each connection's ``InMemoryPeer`` with the same
// protocol logic as on loopback. The HTTP side (auth endpoints, HTTP API, webhooks) stays on loopback.
extension FakePusherServer {
    /// A transport that connects clients to this server in memory, for tests that are not about
    /// sockets. ``refuseConnections(_:)`` fails its connection attempts as a refused upgrade fails.
    package nonisolated var transport: any PusherTransport {
        InMemoryServerTransport(server: self)
    }

    /// A client of this server over ``transport``: the key and options of a loopback client
    /// (``clientOptions()``, so auth endpoints are this server's) unless given.
    package nonisolated func inMemoryClient<C: Clock>(
        key: String? = nil, options: PusherClientOptions? = nil, clock: C
    ) -> PusherClient where C.Duration == Duration {
        PusherClient(
            key: key ?? self.appKey, options: options ?? self.clientOptions(), clock: clock, logger: nil,
            transport: self.transport)
    }

    /// Whether a new connection is refused now; a refusal is counted in the snapshot.
    nonisolated func refusesNewConnection() -> Bool {
        let refuse = self.refusing.withLockedValue { $0 }
        if refuse { self.refusedCount.withLockedValue { $0 += 1 } }
        return refuse
    }

    /// The path and query of a WebSocket URL (`ws://host:port/app/key?protocol=7` →
    /// `/app/key?protocol=7`), what a loopback connection reports as its request URI.
    static func requestURI(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }

    /// What an in-memory connection's session sends last, after everything the client sent, so
    /// that the server's reader ends. No client sends it: it is not JSON.
    static let sessionEnded = "\u{0}fake-server: session ended"

    /// Opens each connection on its own ``InMemoryTransport`` (so its one peer is that
    /// connection's), registers it with the server, and reads what the client sends until the
    /// session is over. The server's state shows the connection closed before `connect` returns.
    struct InMemoryServerTransport: PusherTransport {
        let server: FakePusherServer

        func connect(
            to url: String,
            configuration: TransportConfiguration,
            session: @Sendable (any TransportConnection) async throws -> Void
        ) async throws -> TransportClose? {
            if self.server.refusesNewConnection() {
                throw PusherError(.transportFailed, "the server refused the WebSocket upgrade: HTTP 503")
            }
            let transport = InMemoryTransport()
            let server = self.server
            return try await transport.connect(to: url, configuration: configuration) { connection in
                let peer = await transport.nextConnection()
                let id = await server.open(uri: FakePusherServer.requestURI(of: url), sink: .inMemory(peer))
                let outcome = await withTaskGroup(of: Void.self, returning: Result<Void, any Error>.self) { group in
                    group.addTask {
                        while true {
                            let text = await peer.nextMessage()
                            if text == FakePusherServer.sessionEnded { return }
                            await server.received(text: text, from: id)
                        }
                    }
                    let outcome: Result<Void, any Error>
                    do {
                        try await session(connection)
                        outcome = .success(())
                    } catch {
                        outcome = .failure(error)
                    }
                    // Appended after the client's last message; the reader stops there.
                    try? await connection.send(FakePusherServer.sessionEnded)
                    await group.waitForAll()
                    return outcome
                }
                await server.closed(id, clientCloseCode: peer.clientClosed ? 1000 : nil)
                try outcome.get()
            }
        }
    }
}
