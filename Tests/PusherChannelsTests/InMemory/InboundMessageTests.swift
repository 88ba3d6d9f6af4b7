// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// What the transport hands the client: decoded messages, bad ones as typed errors in their place.
@Suite("Inbound messages", .timeLimit(.minutes(1)))
struct InboundMessageTests {
    @Test("bad messages are reported in order as typed errors; the events around them still arrive")
    func badMessagesInOrder() async throws {
        try await withInMemoryClient { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            async let received = collect(harness.client.events(on: "prices"), count: 3)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                InMemoryClientTests.succeeded("prices"), InMemoryClientTests.event("p", on: "prices", data: "1"),
                "not json", InMemoryClientTests.event("p", on: "prices", data: "2"))
            peer.sendBinary()
            peer.send(InMemoryClientTests.event("p", on: "prices", data: "3"))
            let data = try await received.map(\.data)
            #expect(data == ["1", "2", "3"])
            let first = await errors.next()
            let second = await errors.next()
            #expect(first?.code == .malformedMessage)
            #expect(first?.message.hasPrefix("invalid message") == true)
            #expect(second?.code == .malformedMessage)
            #expect(second?.message == "binary frames are not part of the protocol")
        }
    }
}
