// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import PusherCore
import Testing

/// The one timer model, seen from the client: one task sleeps until the earliest deadline of every
/// timer the engine scheduled; cancelled timers never fire.
@Suite("Client timers", .timeLimit(.minutes(1)))
struct TimerTests {
    @Test("a reconnect timer cancelled by disconnect() never fires")
    func cancelledReconnectTimer() async throws {
        try await withInMemoryClient { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let peer = await harness.established()
            _ = await states.connectedSocketID()
            peer.close(code: 4100, reason: "over capacity")
            _ = await states.collect(until: \.isReconnecting)
            await harness.clock.waitForDeadlines([.seconds(1)])
            #expect(await harness.client.scheduledTimers.map(\.timer) == [.reconnect(2)])
            await harness.client.disconnect()
            // Nothing is left to sleep for.
            await harness.client.waitForEarliestDeadline(nil)
            #expect(await harness.client.scheduledTimers.isEmpty)
            harness.clock.advance(by: .seconds(60))
            await harness.client.checkConnection()
            #expect(harness.transport.connections.count == 1, "the cancelled reconnect opened a socket")
            #expect(await harness.client.state == .disconnected)
        }
    }

    @Test("the client-event pacing timer is cancelled on disconnect; the waiting event goes after the reconnect")
    func clientEventTimerCancelledOnDisconnect() async throws {
        try await withInMemoryClient(configuration: {
            $0.authorizer = .signing(key: "app-key", secret: "secret")
            $0.clientEventRateLimit = 1
        }) { harness in
            var signals = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
            let consumer = Task { for try await _ in harness.client.events(on: "private-chat") {} }
            let first = await harness.established()
            _ = await first.nextMessage(named: "pusher:subscribe")
            first.send(InMemoryClientTests.succeeded("private-chat"))
            _ = await signals.next()
            try await harness.client.trigger("client-a", on: "private-chat", data: "1")
            try await harness.client.trigger("client-a", on: "private-chat", data: "2")
            #expect(await first.nextMessage(named: "client-a").contains(#""data":"1""#))
            #expect(await harness.client.scheduledTimers.contains { $0.timer == .clientEvents })
            await harness.client.disconnect()
            #expect(await !harness.client.scheduledTimers.contains { $0.timer == .clientEvents })
            // Time passes: nothing fires, nothing is sent on the closed socket.
            harness.clock.advance(by: .seconds(5))
            await harness.client.connect()
            let second = await harness.established(socketID: "2.2")
            _ = await second.nextMessage(named: "pusher:subscribe")
            second.send(InMemoryClientTests.succeeded("private-chat"))
            #expect(await second.nextMessage(named: "client-a").contains(#""data":"2""#))
            #expect(first.received.filter { $0.contains("client-a") }.count == 1)
            consumer.cancel()
        }
    }

    @Test("one task sleeps until the earliest deadline; only an earlier deadline re-arms it")
    func oneSleeper() async throws {
        try await withInMemoryClient { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let peer = await harness.transport.nextConnection()
            // Connecting: the handshake timeout is the only timer.
            await harness.clock.waitForDeadlines([.seconds(10)])
            peer.establish(socketID: "1.1", activityTimeout: 60)
            _ = await states.connectedSocketID()
            // Connected: the activity timer replaced it. A later deadline leaves the sleeper alone:
            // it wakes at 10 s, finds nothing due, and sleeps on until 60 s.
            #expect(await harness.client.scheduledTimers.map(\.timer) == [.activity(1)])
            #expect(harness.clock.pendingDeadlines.map(\.offset) == [.seconds(10)])
            harness.clock.advance(by: .seconds(10))
            await harness.clock.waitForDeadlines([.seconds(60)])
            await harness.client.checkConnection()
            // A ping went out: the pong timeout is earlier, and a new sleeper replaced the old one.
            await harness.clock.waitForDeadlines([.seconds(40)])
            #expect(await harness.client.scheduledTimers.map(\.timer) == [.pong(1)])
            #expect(harness.clock.sleeperCount == 1)
        }
    }
}
