// SPDX-License-Identifier: MIT

import Logging
import PusherChannels
import PusherChannelsTesting
import Testing

/// `PusherClientConfiguration.fallbackEndpoints` and `PusherClient.switchEndpoint(to:fallbacks:key:authorizer:)`, with two
/// fake servers on loopback and the backoff in virtual time.
@Suite("Endpoint failover", .timeLimit(.minutes(1)))
struct EndpointFailoverTests {
    /// Runs `body` with two servers and a running client whose endpoints are the first server, then
    /// the second.
    static func withTwoServers(
        first configuration: FakePusherServer.Configuration = .init(),
        _ body: (_ first: FakePusherServer, _ second: FakePusherServer, PusherClient, VirtualClock) async throws -> Void
    ) async throws {
        try await FakePusherServer.withRunning(configuration: configuration) { first in
            try await FakePusherServer.withRunning { second in
                var options = first.clientConfiguration()
                options.fallbackEndpoints = [second.clientConfiguration().endpoint]
                options.backoff.jitter = 0
                let clock = VirtualClock()
                let client = PusherClient(key: second.appKey, configuration: options, clock: clock)
                try await withRunningClient(client) { client in
                    try await body(first, second, client, clock)
                }
            }
        }
    }

    /// The first attempt failed: checks that the client backs off for 1 s (virtual), then connects
    /// to `second`, where an event reaches a consumer made before. Returns the failed attempt's cause.
    static func movesOnToSecond(
        _ client: PusherClient, _ second: FakePusherServer, _ clock: VirtualClock
    ) async throws -> PusherError? {
        var states = client.connectionStates.makeAsyncIterator()
        let events = collecting(client.events(on: "news"), count: 1)
        guard case .reconnecting(1, .seconds(1), let cause)? = await states.collect(until: \.isReconnecting).last
        else {
            Issue.record("the refused attempt did not back off")
            return nil
        }
        // The usual backoff, then the second endpoint.
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        _ = await states.connectedSocketID()
        #expect(await client.currentEndpoint.port == second.port)
        await second.waitForSubscribers(of: "news")
        await second.trigger(channel: "news", event: "flash", data: "from-second")
        let received = try await events.value
        #expect(received.map(\.data) == ["from-second"])
        return cause
    }

    @Test(
        "a first endpoint that does not know the app (4001 before the handshake): the second is tried, where events flow"
    )
    func unknownAppMovesOn() async throws {
        // The first server has another app: it closes with 4001, which with one endpoint would stop the client.
        try await Self.withTwoServers(first: .init(appKey: "another-app")) { _, second, client, clock in
            let cause = try await Self.movesOnToSecond(client, second, clock)
            #expect(cause?.closeCode == 4001)
        }
    }

    @Test("a refused first endpoint: after the backoff the next attempt goes to the second, where events flow")
    func refusedFirstMovesOn() async throws {
        try await FakePusherServer.withRunning { first in
            first.refuseConnections(true)
            try await FakePusherServer.withRunning { second in
                var options = first.clientConfiguration()
                options.fallbackEndpoints = [second.clientConfiguration().endpoint]
                options.backoff.jitter = 0
                options.headers = ["Authorization": "Bearer never-logged"]
                let clock = VirtualClock()
                let records = LogRecords()
                let client = PusherClient(
                    key: first.appKey, configuration: options, clock: clock, logger: ClientLoggingTests.logger(records))
                try await withRunningClient(client) { client in
                    let cause = try await Self.movesOnToSecond(client, second, clock)
                    #expect(cause?.code == .transportFailed)
                    #expect(await first.snapshot.refusedConnections == 1)
                    // The move is logged at notice with the endpoint; header values never are.
                    await client.observationsTold()
                    let moved = records.all.filter { $0.level == .notice && $0.message == "trying the next endpoint" }
                    #expect(moved.map { $0.metadata["pusher.port"] } == ["\(second.port)"])
                    #expect(moved.first?.metadata["pusher.host"] == second.host)
                    #expect(!records.all.contains { $0.rendered.contains("never-logged") })
                    #expect(
                        await second.snapshot.connections.first?.requestHeaders["authorization"]
                            == "Bearer never-logged")
                }
            }
        }
    }

    @Test("each connection state comes with the endpoint of its attempt, however late it is read")
    func statesCarryTheirEndpoint() async throws {
        try await FakePusherServer.withRunning { first in
            first.refuseConnections(true)
            try await FakePusherServer.withRunning { second in
                var options = first.clientConfiguration()
                options.fallbackEndpoints = [second.clientConfiguration().endpoint]
                options.backoff.jitter = 0
                options.connectsAutomatically = false
                let clock = VirtualClock()
                let client = PusherClient(key: first.appKey, configuration: options, clock: clock)
                try await withRunningClient(client) { client in
                    var paired = client.connectionStatesAtEndpoints.makeAsyncIterator()
                    var states = client.connectionStates.makeAsyncIterator()
                    await client.connect()
                    _ = await states.collect(until: \.isReconnecting)
                    await clock.waitForDeadlines([.seconds(1)])
                    clock.advance(by: .seconds(1))
                    _ = await states.connectedSocketID()
                    // Read only now: the latest endpoint is the second, yet each attempt names its own.
                    #expect(await client.currentEndpoint.port == second.port)
                    var attempts: [String] = []
                    while let next = await paired.next() {
                        if case .connecting(let attempt) = next.state {
                            attempts.append("\(attempt)@\(next.endpoint?.port ?? 0)")
                        }
                        if next.state.isConnected { break }
                    }
                    #expect(attempts == ["0@\(first.port)", "1@\(second.port)"])
                }
            }
        }
    }

    @Test("a first endpoint that never sends connection_established: handshake timeout, then the second")
    func handshakeTimeoutMovesOn() async throws {
        try await Self.withTwoServers(first: .init(sendsConnectionEstablished: false)) { first, second, client, clock in
            var states = client.connectionStates.makeAsyncIterator()
            await first.waitForConnections(count: 1)
            await clock.waitForDeadlines([.seconds(10)])
            clock.advance(by: .seconds(10))
            guard case .reconnecting(1, .seconds(1), let cause)? = await states.collect(until: \.isReconnecting).last
            else {
                Issue.record("no handshake timeout")
                return
            }
            #expect(cause.code == .handshakeTimeout)
            await clock.waitForDeadlines([.seconds(11)])
            clock.advance(by: .seconds(1))
            _ = await states.connectedSocketID()
            #expect(await second.snapshot.openConnections.count == 1)
        }
    }

    @Test("a connection dropped after it was established reconnects to the same endpoint first")
    func establishedDropStays() async throws {
        try await Self.withTwoServers { first, second, client, clock in
            var states = client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await first.drop()
            _ = await states.collect { $0.isReconnecting }
            await clock.waitForDeadlines([.seconds(1)])
            clock.advance(by: .seconds(1))
            _ = await states.connectedSocketID()
            #expect(await first.snapshot.connections.count == 2)
            #expect(await first.snapshot.openConnections.count == 1)
            #expect(await second.snapshot.connections.isEmpty)
            #expect(await client.currentEndpoint.port == first.port)
        }
    }

    @Test("switchEndpoint moves the connection at once; the same sequence gets the new server's events")
    func switchEndpointKeepsSubscriptions() async throws {
        try await FakePusherServer.withRunning { first in
            try await FakePusherServer.withRunning { second in
                var options = first.clientConfiguration()
                options.backoff.jitter = 0
                let client = PusherClient(key: first.appKey, configuration: options, clock: VirtualClock())
                try await withRunningClient(client) { client in
                    var events = client.events(on: "news").makeAsyncIterator()
                    await first.waitForSubscribers(of: "news")
                    await first.trigger(channel: "news", event: "flash", data: "from-first")
                    #expect(try await events.next()?.data == "from-first")
                    try await client.switchEndpoint(to: second.clientConfiguration().endpoint)
                    await second.waitForSubscribers(of: "news")
                    await second.trigger(channel: "news", event: "flash", data: "from-second")
                    #expect(try await events.next()?.data == "from-second")
                    await first.waitUntil { $0.openConnections.isEmpty }
                    #expect(await client.currentEndpoint.port == second.port)
                }
            }
        }
    }

    @Test(
        "switchEndpoint to another app (another cluster): its key and authorizer; private channels go on there"
    )
    func switchEndpointToAnotherApp() async throws {
        let here = FakePusherServer.Configuration(appKey: "us-app-key", appSecret: "us-secret")
        let there = FakePusherServer.Configuration(appKey: "eu-app-key", appSecret: "eu-secret")
        try await FakePusherServer.withRunning(configuration: here) { first in
            try await FakePusherServer.withRunning(configuration: there) { second in
                var options = first.clientConfiguration()
                options.authorizer = .signing(key: "us-app-key", secret: "us-secret")
                let client = PusherClient(key: "us-app-key", configuration: options, clock: VirtualClock())
                try await withRunningClient(client) { client in
                    var events = client.events(on: "private-news").makeAsyncIterator()
                    await first.waitForSubscribers(of: "private-news")
                    try await client.switchEndpoint(
                        to: second.clientConfiguration().endpoint, key: "eu-app-key",
                        authorizer: .signing(key: "eu-app-key", secret: "eu-secret"))
                    #expect(client.key == "eu-app-key")
                    await second.waitForSubscribers(of: "private-news")
                    await second.trigger(channel: "private-news", event: "flash", data: "from-eu")
                    #expect(try await events.next()?.data == "from-eu")
                    #expect(await client.state.isConnected)
                }
            }
        }
    }

    @Test("switchEndpoint refuses an endpoint that cannot form a URL and keeps the connection")
    func switchEndpointRefusesInvalid() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await #expect(throws: PusherError.self) {
                try await harness.client.switchEndpoint(to: PusherEndpoint(host: "bad host", useTLS: false))
            }
            do throws(PusherError) {
                try await harness.client.switchEndpoint(
                    to: harness.server.clientConfiguration().endpoint, fallbacks: [PusherEndpoint(host: "x", port: 0)])
                Issue.record("a fallback with port 0 was taken")
            } catch {
                #expect(error.code == .invalidConfiguration)
            }
            #expect(await harness.client.state.isConnected)
            #expect(await harness.server.snapshot.connections.count == 1)
        }
    }
}
