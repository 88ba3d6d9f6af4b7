// SPDX-License-Identifier: MIT

import Logging
import NIOConcurrencyHelpers
import PusherChannels

// Connections without sockets: a client given ``clientTransport`` reaches this server through an
// ``InMemoryTransport``, and the server plays each connection's ``InMemoryPeer`` with the same
// protocol logic as on loopback. The HTTP side (auth endpoints, HTTP API, webhooks) stays on loopback.
extension FakePusherServer {
    /// A transport that connects clients to this server in memory, without a socket: give it to
    /// `PusherClient`'s `init(key:configuration:clock:logger:transport:)`, or let
    /// ``inMemoryClient(key:configuration:clock:logger:)`` make the client.
    ///
    /// The server treats such a connection as one on loopback: the same handshake, subscriptions,
    /// presence rosters, client events, close codes, drops and ``refuseConnections(_:)`` (a refused
    /// attempt fails as a refused WebSocket upgrade does), and ``snapshot`` lists it with the others.
    /// Only the WebSocket itself is left out, so the TLS mode does not apply to it. The HTTP side
    /// (auth endpoints, HTTP API, webhooks) stays on loopback.
    public nonisolated var clientTransport: PusherClientTransport {
        PusherClientTransport(InMemoryServerTransport(server: self))
    }

    /// A client of this server connected in memory (``clientTransport``), with its timers on `clock`
    /// (a ``VirtualClock`` in tests). Not running yet: run it with `withRunningClient(_:isolation:_:)`.
    ///
    /// ```swift
    /// try await FakePusherServer.withRunning { server in
    ///     let client = server.inMemoryClient(clock: VirtualClock())
    ///     try await withRunningClient(client) { client in
    ///         try await client.withSubscription(to: "prices") { events in
    ///             await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1}"#)
    ///             var iterator = events.makeAsyncIterator()
    ///             let event = try await iterator.next()
    ///             #expect(event?.data == #"{"price":1}"#)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The application key; ``appKey`` (the one the server accepts) unless given.
    ///   - configuration: The client's configuration; ``clientConfiguration()`` unless given. Its host,
    ///     port and TLS settings do not matter in memory; the URL's path and key still do.
    ///   - clock: The clock of the client's timers.
    ///   - logger: Where the client logs; nothing without one.
    public nonisolated func inMemoryClient<C: Clock>(
        key: String? = nil, configuration: PusherClientConfiguration? = nil, clock: C, logger: Logger? = nil
    ) -> PusherClient where C.Duration == Duration {
        PusherClient(
            key: key ?? self.appKey, configuration: configuration ?? self.clientConfiguration(), clock: clock,
            logger: logger,
            transport: self.clientTransport)
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
    /// connection is over. The server's state shows the connection closed before `connect` returns.
    struct InMemoryServerTransport: PusherTransport {
        let server: FakePusherServer

        func connect(
            to url: String, configuration: TransportConfiguration, handler: any TransportHandler
        ) async throws -> TransportClose? {
            if self.server.refusesNewConnection() {
                throw PusherError(.transportFailed, "the server refused the WebSocket upgrade: HTTP 503")
            }
            let transport = InMemoryTransport()
            let server = self.server
            var headers: [String: String] = [:]
            for header in configuration.headers { headers[header.name.lowercased()] = header.value }
            return try await withTaskGroup(of: Void.self, returning: Result<TransportClose?, any Error>.self) {
                group in
                // The server's side: registers the connection, then handles what the client sends.
                group.addTask { [headers] in
                    let peer = await transport.nextConnection()
                    let id = await server.open(
                        uri: FakePusherServer.requestURI(of: url), headers: headers, sink: .inMemory(peer))
                    while true {
                        let text = await peer.nextMessage()
                        if text == FakePusherServer.sessionEnded { break }
                        await server.received(text: text, from: id)
                    }
                    await server.closed(id, clientCloseCode: peer.clientClosed ? 1000 : nil)
                }
                let outcome: Result<TransportClose?, any Error>
                do {
                    outcome = .success(
                        try await transport.connect(to: url, configuration: configuration, handler: handler))
                } catch {
                    outcome = .failure(error)
                }
                // After the client's last message: the server's reader stops there.
                transport.connections.last?.record(FakePusherServer.sessionEnded)
                await group.waitForAll()
                return outcome
            }.get()
        }
    }
}
