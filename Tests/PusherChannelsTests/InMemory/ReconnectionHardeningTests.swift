// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Servers that misbehave around the connection, and options that cannot form one: what the user
/// sees is a bounded, reported reaction, never a tight reconnect loop.
@Suite("Reconnection hardening", .timeLimit(.minutes(1)))
struct ReconnectionHardeningTests {
    @Test(
        "invalid options fail at once with invalidConfiguration: no socket, no retry, no stale state",
        arguments: [
            PusherEndpoint.cluster("x@evil.com#"), PusherEndpoint(host: "bad host"), PusherEndpoint(host: "h", port: 0),
            PusherEndpoint(host: "h", port: 70000), PusherEndpoint(host: "h", path: "a?b"),
        ]
    )
    func invalidConfiguration(endpoint: PusherEndpoint) async throws {
        try await withInMemoryClient(configuration: { $0.endpoint = endpoint }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            let seen = await states.collect { $0.failure != nil }
            #expect(seen.last?.failure?.code == .invalidConfiguration)
            #expect(!seen.contains { $0.isReconnecting })
            #expect(await errors.next()?.code == .invalidConfiguration)
            // No socket is ever asked for, even as time passes; connect() reports the error again.
            harness.clock.advance(by: .seconds(120))
            await harness.client.connect()
            #expect(await errors.next()?.code == .invalidConfiguration)
            #expect(harness.transport.connections.isEmpty)
            #expect(await harness.client.state.failure?.code == .invalidConfiguration)
        }
    }

    @Test("a server that accepts the handshake and closes at once is met with growing delays")
    func closesRightAfterHandshake() async throws {
        try await withInMemoryClient { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            var delays: [Duration] = []
            for round in 1...5 {
                let peer = await harness.established(socketID: "\(round).\(round)")
                _ = await states.connectedSocketID()
                peer.close(code: 4200, reason: "go away")
                guard case .reconnecting(_, let delay, _)? = await states.collect(until: { $0.isReconnecting }).last
                else { return }
                delays.append(delay)
                if delay > .zero {
                    await harness.clock.waitForSleepers()
                    harness.clock.advance(by: delay)
                }
            }
            // 4200 asks for an immediate reconnect: granted once, then the backoff grows.
            #expect(delays == [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        }
    }

    @Test("a server that establishes, sends an event and closes with 4200 meets the backoff and maximumAttempts")
    func reconnectStorm() async throws {
        try await withInMemoryClient(configuration: { $0.backoff.maximumAttempts = 4 }) { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await collect(harness.client.events(on: "prices"), count: .max) }
                var delays: [Duration] = []
                var failure: PusherError?
                for round in 1...6 where failure == nil {
                    let peer = await harness.established(socketID: "\(round).\(round)")
                    _ = await peer.nextMessage(named: "pusher:subscribe")
                    // Every frame a storm server sends: none keeps the connection up a moment.
                    peer.send(
                        #"{"event":"x"}"#,
                        #"{"event":"pusher_internal:subscription_succeeded","channel":"prices","data":"{}"}"#,
                        #"{"event":"p","channel":"prices","data":"1"}"#)
                    peer.close(code: 4200, reason: "reconnect")
                    let seen = await states.collect { $0.isReconnecting || $0.failure != nil }
                    if case .reconnecting(_, let delay, _)? = seen.last {
                        delays.append(delay)
                        if delay > .zero {
                            await harness.clock.waitForSleepers()
                            harness.clock.advance(by: delay)
                        }
                    }
                    failure = seen.last?.failure
                }
                // The immediate reconnect 4200 asks for is granted once; then the delays grow until
                // the fifth attempt would exceed maximumAttempts.
                #expect(delays == [.zero, .seconds(1), .seconds(2), .seconds(4)])
                #expect(failure?.code == .reconnectAttemptsExhausted)
                #expect(harness.transport.connections.count == 5)
                group.cancelAll()
            }
        }
    }

    @Test("a second connection_established is reported and ignored: nothing is authorized or subscribed again")
    func duplicateConnectionEstablished() async throws {
        try await withInMemoryClient { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            async let events = collect(harness.client.events(on: "prices"), count: 1)
            let peer = await harness.established()
            _ = await states.connectedSocketID()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.establish(socketID: "9.9")
            let error = await errors.next()
            #expect(error?.code == .protocolViolation)
            #expect(await harness.client.state == .connected(socketID: "1.1"))
            peer.send(
                #"{"event":"pusher_internal:subscription_succeeded","channel":"prices","data":"{}"}"#,
                #"{"event":"p","channel":"prices","data":"1"}"#)
            let data = try await events.map(\.data)
            #expect(data == ["1"])
            // The next subscribe the server sees is a new channel's, not "prices" again.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await collect(harness.client.events(on: "other"), count: 1) }
                #expect(await peer.nextMessage(named: "pusher:subscribe").contains(#""channel":"other""#))
                group.cancelAll()
            }
        }
    }
}
