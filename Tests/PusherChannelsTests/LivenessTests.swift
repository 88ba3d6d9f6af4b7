// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Liveness: activity timeout, ping and pong", .timeLimit(.minutes(1)))
struct LivenessTests {
    @Test(
        "the effective activity timeout is min(client, server); without a server value the client's applies",
        arguments: [(Int?.none, Duration.seconds(120)), (30, .seconds(30)), (600, .seconds(120))]
    )
    func effectiveActivityTimeout(server: Int?, effective: Duration) async throws {
        try await withHarness(server: .init(activityTimeout: server)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.client.waitForEarliestDeadline(effective)
            harness.clock.advance(by: effective - .milliseconds(1))
            #expect(await harness.server.snapshot.messages(named: "pusher:ping").isEmpty)
            harness.clock.advance(by: .milliseconds(1))
            await harness.server.waitForMessages(named: "pusher:ping")
        }
    }

    @Test("any inbound message postpones the ping")
    func inboundPostponesPing() async throws {
        try await withHarness(server: .init(activityTimeout: 30)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.client.waitForEarliestDeadline(.seconds(30))
            harness.clock.advance(by: .seconds(20))
            // The server talks at t = 20 s (an unsolicited pusher:pong is any message).
            await harness.server.send(raw: #"{"event":"pusher:pong","data":{}}"#)
            try await Self.waitUntilClientProcessed(harness)
            harness.clock.advance(by: .seconds(10))
            // At t = 30 s the activity timer sees 10 s of silence and is scheduled again for t = 50 s.
            await harness.client.waitForEarliestDeadline(.seconds(50))
            #expect(await harness.server.snapshot.messages(named: "pusher:ping").isEmpty)
            harness.clock.advance(by: .seconds(20))
            await harness.server.waitForMessages(named: "pusher:ping")
        }
    }

    @Test("no pong within the pong timeout: the old socket is closed and a new one connects")
    func pongTimeoutReconnects() async throws {
        try await withHarness(server: .init(activityTimeout: 60, answersPings: false)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = try #require(await states.connectedSocketID())
            await harness.client.waitForEarliestDeadline(.seconds(60))
            harness.clock.advance(by: .seconds(60))
            await harness.server.waitForMessages(named: "pusher:ping")
            await harness.client.waitForEarliestDeadline(.seconds(90))
            harness.clock.advance(by: .seconds(29))
            #expect(await harness.server.snapshot.openConnections.count == 1)
            harness.clock.advance(by: .seconds(1))
            let seen = await states.collect { $0.isConnected }
            guard case .reconnecting(1, .zero, let cause)? = seen.first else {
                Issue.record("expected an immediate reconnect, saw \(seen)")
                return
            }
            #expect(cause.code == .pongTimeout)
            let second = try #require(seen.last?.socketID)
            #expect(second != first)
            await harness.server.waitUntil { snapshot in
                snapshot.connections.count == 2 && !snapshot.connections[0].isOpen && snapshot.connections[1].isOpen
            }
        }
    }

    @Test("a pong (or any message) after the ping keeps the connection")
    func pongKeepsConnection() async throws {
        try await withHarness(server: .init(activityTimeout: 60)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.client.waitForEarliestDeadline(.seconds(60))
            harness.clock.advance(by: .seconds(60))
            await harness.server.waitForMessages(named: "pusher:ping")
            await harness.client.waitForEarliestDeadline(.seconds(90))
            try await Self.waitUntilClientProcessed(harness)
            harness.clock.advance(by: .seconds(30))
            // The pong arrived at t = 60 s: next ping due at t = 120 s, same socket.
            await harness.client.waitForEarliestDeadline(.seconds(120))
            #expect(await harness.client.state.isConnected)
            #expect(await harness.server.snapshot.connections.count == 1)
        }
    }

    @Test("checkConnection() pings at once; a dead socket is replaced after the pong timeout")
    func checkConnectionNow() async throws {
        try await withHarness(server: .init(answersPings: false)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = try #require(await states.connectedSocketID())
            await harness.client.waitForEarliestDeadline(.seconds(120))
            harness.clock.advance(by: .seconds(10))
            await harness.client.checkConnection()
            await harness.server.waitForMessages(named: "pusher:ping")
            await harness.client.waitForEarliestDeadline(.seconds(40))
            harness.clock.advance(by: .seconds(30))
            let seen = await states.collect { $0.isConnected }
            #expect(seen.last?.socketID != first)
            #expect(seen.first?.isReconnecting == true)
        }
    }

    @Test("a server pusher:ping is answered with pusher:pong at once")
    func answersServerPing() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.send(raw: #"{"event":"pusher:ping"}"#)
            let pongs = await harness.server.waitForMessages(named: "pusher:pong")
            #expect(pongs.count == 1)
            #expect(harness.clock.now.offset == .zero)
        }
    }

    /// Round-trips a server ping so that every frame the server sent before it has been handled.
    static func waitUntilClientProcessed(_ harness: Harness) async throws {
        let before = await harness.server.snapshot.messages(named: "pusher:pong").count
        await harness.server.send(raw: #"{"event":"pusher:ping"}"#)
        await harness.server.waitForMessages(named: "pusher:pong", count: before + 1)
    }
}
