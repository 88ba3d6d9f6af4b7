// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Connection lifecycle", .timeLimit(.minutes(1)))
struct ConnectionLifecycleTests {
    @Test("connects with key, protocol 7, client and version; states go initialized → connecting → connected")
    func connects() async throws {
        try await withHarness(options: { $0.connectsAutomatically = false }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let initial = await states.next()
            #expect(initial == .initialized)
            await harness.client.connect()
            let seen = await states.collect { $0.isConnected }
            let connection = try #require(await harness.server.snapshot.connections.first)
            #expect(seen == [.connecting(attempt: 0), .connected(socketID: connection.socketID)])
            #expect(
                connection.requestURI.hasPrefix(
                    "/app/\(harness.server.appKey)?protocol=7&client=swift-pusher-channels&version="))
            #expect(await harness.client.state == .connected(socketID: connection.socketID))
        }
    }

    @Test("a wrong app key is closed with 4001 during the handshake: failed with the code, never retried")
    func wrongKey() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            let client = server.inMemoryClient(key: "not-the-key", clock: clock)
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                let failed = await states.collect { $0.failure != nil }
                let error = try #require(failed.last?.failure)
                #expect(error.code == .connectionClosed)
                #expect(error.closeCode == 4001)
                #expect(error.message.contains("App key not in this cluster"))
                // No timer is left: none scheduled, and the one timer task stops sleeping.
                #expect(await client.scheduledTimers.isEmpty)
                await client.waitForEarliestDeadline(nil)
                #expect(await server.snapshot.connections.count == 1)
            }
        }
    }

    @Test(
        "close codes after the handshake: 4000–4099 are terminal and reach the error stream",
        arguments: [4000, 4004, 4099])
    func terminalAfterHandshake(code: Int) async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.close(code: code, reason: "go away")
            let failed = await states.collect { $0.failure != nil }
            let error = try #require(failed.last?.failure)
            #expect(error.closeCode == code)
            let reported = await errors.next()
            #expect(reported?.closeCode == code)
            #expect(await harness.client.scheduledTimers.isEmpty)
            await harness.client.waitForEarliestDeadline(nil)
            #expect(await harness.server.snapshot.connections.count == 1)
        }
    }

    @Test("4100 after the handshake: the first retry waits exactly 1 s on the clock")
    func overCapacityWaitsOneSecond() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.close(code: 4100, reason: "over capacity")
            let reconnecting = await states.collect { $0.isReconnecting }.last
            guard case .reconnecting(1, let delay, let cause)? = reconnecting else {
                Issue.record("expected reconnecting, got \(String(describing: reconnecting))")
                return
            }
            #expect(delay == .seconds(1))
            #expect(cause.closeCode == 4100)
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .milliseconds(999))
            #expect(harness.clock.pendingDeadlines.map(\.offset) == [.seconds(1)])
            #expect(await harness.server.snapshot.connections.count == 1)
            harness.clock.advance(by: .milliseconds(1))
            let seen = await states.collect { $0.isConnected }
            #expect(seen.first == .connecting(attempt: 1))
            #expect(await harness.server.snapshot.connections.count == 2)
        }
    }

    @Test("4200: reconnects at once, without waiting on the clock")
    func reconnectImmediately() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await states.connectedSocketID()
            await harness.server.close(code: 4200, reason: "reconnect")
            let seen = await states.collect { $0.isConnected }
            guard case .reconnecting(1, .zero, _)? = seen.first else {
                Issue.record("expected an immediate reconnect, saw \(seen)")
                return
            }
            #expect(seen.last?.socketID != first)
            #expect(harness.clock.now.offset == .zero)
        }
    }

    @Test("a dropped socket backs off; the counter resets after a connection stayed up 10 s")
    func dropBacksOffAndResets() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            harness.server.refuseConnections(true)
            await harness.server.drop()
            let first = await states.collect { $0.isReconnecting }.last
            #expect(first?.description.hasPrefix("reconnecting(attempt: 1, delay: 1.0 seconds") == true)
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .seconds(1))
            // The refused attempt fails; the second delay doubles.
            let second = await states.collect { $0.isReconnecting }.last
            guard case .reconnecting(2, .seconds(2), let cause)? = second else {
                Issue.record("expected the second attempt after 2 s, got \(String(describing: second))")
                return
            }
            #expect(cause.code == .transportFailed)
            harness.server.refuseConnections(false)
            await harness.clock.waitForDeadlines([.seconds(3)])
            harness.clock.advance(by: .seconds(2))
            _ = await states.connectedSocketID()
            // Healthy for `Backoff.resetAfter` (10 s): the next drop starts the backoff afresh.
            harness.clock.advance(by: .seconds(10))
            await harness.server.drop()
            guard case .reconnecting(1, .seconds(1), _)? = await states.collect(until: { $0.isReconnecting }).last
            else {
                Issue.record("the attempt counter did not reset after connecting")
                return
            }
        }
    }

    @Test("after the attempt limit the client fails; connect() starts afresh")
    func attemptLimit() async throws {
        try await withHarness(options: { $0.backoff.maximumAttempts = 1 }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            harness.server.refuseConnections(true)
            await harness.server.drop()
            await harness.clock.waitForDeadlines([.seconds(1)])
            harness.clock.advance(by: .seconds(1))
            let failed = await states.collect { $0.failure != nil }
            let error = try #require(failed.last?.failure)
            #expect(error.code == .reconnectAttemptsExhausted)
            #expect(await harness.client.scheduledTimers.isEmpty)
            await harness.client.waitForEarliestDeadline(nil)
            harness.server.refuseConnections(false)
            await harness.client.connect()
            let seen = await states.collect { $0.isConnected }
            #expect(seen.first == .connecting(attempt: 0))
        }
    }

    @Test("disconnect() during backoff cancels the retry; nothing reconnects")
    func disconnectDuringBackoff() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.drop()
            _ = await states.collect { $0.isReconnecting }
            await harness.clock.waitForDeadlines([.seconds(1)])
            await harness.client.disconnect()
            let next = await states.next()
            #expect(next == .disconnected)
            await harness.client.waitForEarliestDeadline(nil)
            harness.clock.advance(by: .seconds(3600))
            #expect(await harness.client.state == .disconnected)
            #expect(await harness.server.snapshot.connections.count == 1)
        }
    }

    @Test("disconnect() during the handshake closes the socket; nothing reconnects")
    func disconnectDuringHandshake() async throws {
        try await withHarness(server: .init(sendsConnectionEstablished: false)) { harness in
            await harness.server.waitForConnections(count: 1)
            await harness.clock.waitForDeadlines([.seconds(10)])
            // The client has seen its socket open (it answers a ping only then): a socket still in
            // its WebSocket handshake would be dropped without a close frame instead.
            try await LivenessTests.waitUntilClientProcessed(harness)
            await harness.client.disconnect()
            await harness.server.waitUntil { $0.openConnections.isEmpty }
            #expect(await harness.server.snapshot.connections.first?.clientCloseCode == 1000)
            harness.clock.advance(by: .seconds(3600))
            #expect(await harness.client.state == .disconnected)
            #expect(await harness.server.snapshot.connections.count == 1)
        }
    }

    @Test("no connection_established within the handshake timeout: drop and back off")
    func handshakeTimeout() async throws {
        try await withHarness(server: .init(sendsConnectionEstablished: false)) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            await harness.clock.waitForDeadlines([.seconds(10)])
            harness.clock.advance(by: .seconds(10))
            let reconnecting = await states.collect { $0.isReconnecting }.last
            guard case .reconnecting(1, .seconds(1), let cause)? = reconnecting else {
                Issue.record("expected a backoff after the timeout, got \(String(describing: reconnecting))")
                return
            }
            #expect(cause.code == .handshakeTimeout)
            await harness.server.waitUntil { $0.openConnections.isEmpty }
        }
    }

    @Test("cancelling run() drops the socket, ends in disconnected and finishes every sequence")
    func cancelRun() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            let client = server.inMemoryClient(clock: clock)
            var states = client.connectionStates.makeAsyncIterator()
            let running = Task { try await client.run() }
            _ = await states.connectedSocketID()
            running.cancel()
            try await running.value
            let rest = await states.collect { $0 == .disconnected }
            #expect(rest == [.disconnected])
            let end = await states.next()
            #expect(end == nil)
            await server.waitUntil { $0.openConnections.isEmpty }
            #expect(clock.sleeperCount == 0)
        }
    }

    @Test("run() may be called only once")
    func runTwice() async throws {
        try await withHarness { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await #expect(throws: PusherError.self) { try await harness.client.run() }
        }
    }

    @Test("graceful shutdown closes with 1000 and finishes every sequence")
    func gracefulShutdown() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            let client = server.inMemoryClient(clock: clock)
            var states = client.connectionStates.makeAsyncIterator()
            async let eventNames: [String] = {
                var names: [String] = []
                for try await event in client.events(on: "news") { names.append(event.name) }
                return names
            }()
            try await withRunningClient(client) { client in
                _ = await states.connectedSocketID()
                await server.waitForSubscribers(of: "news")
                await server.trigger(channel: "news", event: "flash", data: "{}")
            }
            // The event sent before the close arrives, then the sequence ends.
            let eventNamesResult = try await eventNames
            #expect(eventNamesResult == ["flash"])
            let last = await states.collect { $0 == .disconnected }.last
            #expect(last == .disconnected)
            let end = await states.next()
            #expect(end == nil)
            await server.waitUntil { $0.openConnections.isEmpty }
            #expect(await server.snapshot.connections.first?.clientCloseCode == 1000)
            // No timer is left behind.
            #expect(clock.sleeperCount == 0)
            // A finished client hands out finished sequences.
            var late = client.events(on: "news").makeAsyncIterator()
            let lateEvent = try await late.next()
            #expect(lateEvent == nil)
            var lateErrors = client.errors.makeAsyncIterator()
            let lateError = await lateErrors.next()
            #expect(lateError == nil)
        }
    }
}
