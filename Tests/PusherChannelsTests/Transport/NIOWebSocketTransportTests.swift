// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

// Loopback: the NIO WebSocket transport itself is the subject.
@Suite("NIO WebSocket transport", .timeLimit(.minutes(1)))
struct NIOWebSocketTransportTests {
    @Test("a port nobody listens on: transportFailed at every attempt, retried with backoff", arguments: [false, true])
    func nothingListening(useTLS: Bool) async throws {
        // A port held by a socket that is bound but does not listen: connecting is refused, and no
        // other test's server can take the port meanwhile (a port freed a moment ago could be).
        let refusing = try RefusingPort()
        let port = refusing.port
        var options = PusherClientConfiguration(host: "127.0.0.1", port: port, useTLS: useTLS)
        options.backoff.jitter = 0
        let clock = VirtualClock()
        let client = PusherClient(key: "key", configuration: options, clock: clock)
        try await withRunningClient(client) { client in
            var errors = client.errors.makeAsyncIterator()
            let first = try #require(await errors.next())
            #expect(first.code == .transportFailed)
            await clock.waitForDeadlines([.seconds(1)])
            clock.advance(by: .seconds(1))
            let second = await errors.next()
            #expect(second?.code == .transportFailed)
        }
        withExtendedLifetime(refusing) {}
    }
}
