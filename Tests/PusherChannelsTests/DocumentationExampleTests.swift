// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

// The complete example of the PusherChannelsTesting article (TestingWithPusherChannelsTesting.md),
// kept here so that it compiles and passes with every change. Edit both together.

// Loopback: the article's example uses only the public API, hence a real WebSocket.
@Suite("Price feed", .timeLimit(.minutes(1)))
struct PriceFeedTests {
    struct Price: Decodable, Equatable {
        var symbol: String
        var price: Double
    }

    @Test("events the server triggers reach the consumer, decoded")
    func deliversEvents() async throws {
        try await FakePusherServer.withRunning { server in
            let client = PusherClient(
                key: server.appKey, configuration: server.clientConfiguration(), clock: VirtualClock())
            try await withRunningClient(client) { client in
                async let received = firstEvents(client.events(on: "prices", named: "new-price"), count: 1)
                await server.waitForSubscribers(of: "prices")
                await server.trigger(channel: "prices", event: "new-price", data: #"{"symbol":"ACME","price":1.5}"#)
                let events = try await received
                #expect(try events[0].decode(Price.self) == Price(symbol: "ACME", price: 1.5))
            }
        }
    }

    @Test("after a 4100 close the client waits exactly 1 s, then reconnects")
    func reconnectsAfterOverCapacity() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            var options = server.clientConfiguration()
            options.backoff.jitter = 0
            let client = PusherClient(key: server.appKey, configuration: options, clock: clock)
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                await server.close(code: 4100, reason: "over capacity")
                await clock.waitForDeadlines([.seconds(1)])
                clock.advance(by: .milliseconds(999))
                #expect(await server.snapshot.connections.count == 1)
                clock.advance(by: .milliseconds(1))
                await server.waitForConnections(count: 2)
            }
        }
    }

    @Test("a socket that stops answering pings is replaced")
    func replacesHalfOpenSocket() async throws {
        let configuration = FakePusherServer.Configuration(activityTimeout: 60, answersPings: false)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let clock = VirtualClock()
            let client = PusherClient(key: server.appKey, configuration: server.clientConfiguration(), clock: clock)
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                clock.advance(by: .seconds(60))  // the server's activity timeout: the client pings
                await server.waitForMessages(named: "pusher:ping")
                await clock.waitForDeadlines([.seconds(90)])  // the pong timeout, 30 s later
                clock.advance(by: .seconds(30))
                let next = await states.next()
                guard case .reconnecting(_, _, let cause)? = next else {
                    Issue.record("expected reconnecting, got \(String(describing: next))")
                    return
                }
                #expect(cause.code == .pongTimeout)
                await server.waitForConnections(count: 2)
            }
        }
    }
}

/// The first `count` events of `sequence`.
func firstEvents(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
    var events: [ChannelEvent] = []
    for try await event in sequence {
        events.append(event)
        if events.count == count { break }
    }
    return events
}
