// Test code that uses PusherClient without a socket: the fake server serves the client in memory,
// and a virtual clock drives its timers.
//
// Runs offline and finishes: the fake server confirms a subscription, sends one event, then closes
// the connection with 4100 (over capacity); the client waits exactly one second of virtual time and
// reconnects, all in a few milliseconds. In a Swift Testing suite, the prints are `#expect`s.

import PusherChannels
import PusherChannelsTesting

// snippet.in-memory
try await FakePusherServer.withInMemory { server in
    let clock = VirtualClock()
    var configuration = server.clientConfiguration()
    configuration.backoff.jitter = 0  // exact backoff delays
    // Connected to `server` in memory: the same protocol as on loopback, without a socket.
    let client = server.inMemoryClient(configuration: configuration, clock: clock)
    try await withRunningClient(client) { client in
        // Entered once the server has confirmed the subscription: what it sends now is delivered.
        try await client.withSubscription(to: "prices") { prices in
            await server.trigger(channel: "prices", event: "new-price", data: #"{"price":1.5}"#)
            var events = prices.makeAsyncIterator()
            let event = try await events.next()
            print("received \(event?.name ?? "nothing"): \(event?.data ?? "")")
        }

        // Reconnection in virtual time: wait until the client sleeps for the 1 s delay, then move time.
        var states = client.connectionStates.makeAsyncIterator()
        while let state = await states.next(), !state.isConnected {}
        await server.close(code: 4100, reason: "over capacity")
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        await server.waitForConnections(count: 2)
        while let state = await states.next(), !state.isConnected {}
        print("reconnected after one virtual second; connections: \(await server.snapshot.connections.count)")
    }
}
// snippet.end
