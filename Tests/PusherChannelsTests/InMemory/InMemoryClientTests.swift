// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// Client behaviour over the in-memory transport: what the user observes, without sockets.
@Suite("Client over the in-memory transport", .timeLimit(.minutes(1)))
struct InMemoryClientTests {
    static func event(_ name: String, on channel: String, data: String) -> String {
        #"{"event":"\#(name)","channel":"\#(channel)","data":"\#(data)"}"#
    }

    static func succeeded(_ channel: String) -> String {
        #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#
    }

    @Test("connects with the protocol's URL, subscribes, and delivers one read's events in order")
    func connectSubscribeDeliver() async throws {
        try await withInMemoryClient { harness in
            async let received = collect(harness.client.events(on: "prices"), count: 3)
            let peer = await harness.established()
            #expect(peer.url.hasPrefix("wss://pusher.invalid:443/app/app-key?protocol=7"))
            #expect(
                await peer.nextMessage(named: "pusher:subscribe")
                    == #"{"event":"pusher:subscribe","data":{"channel":"prices"}}"#)
            peer.send(
                Self.succeeded("prices"), Self.event("p", on: "prices", data: "1"),
                Self.event("p", on: "prices", data: "2"), Self.event("p", on: "prices", data: "3"))
            let data = try await received.map(\.data)
            #expect(data == ["1", "2", "3"])
        }
    }

    @Test("what the server sends just before it closes still arrives, also while the client has paused reading")
    func messagesBeforeClose() async throws {
        try await withInMemoryClient { harness in
            let events = harness.client.events(
                on: "feed", buffering: BufferingPolicy(limit: 1, whenFull: .pauseReading))
            var iterator = events.makeAsyncIterator()
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                Self.succeeded("feed"), Self.event("e", on: "feed", data: "1"), Self.event("e", on: "feed", data: "2"))
            // Over its limit: the client pauses reading, so these wait on the server's side.
            #expect(await harness.client.isReadingPaused)
            peer.send(Self.event("e", on: "feed", data: "3"))
            peer.send(Self.event("e", on: "feed", data: "4"))
            peer.close(code: 4200, reason: "reconnect")
            var data: [String] = []
            while data.count < 4, let event = try await iterator.next() { data.append(event.data) }
            #expect(data == ["1", "2", "3", "4"])
        }
    }

    @Test(
        "close codes decide what happens next",
        arguments: [
            (4001, "failed"),
            (4100, "backs off"),
            (4200, "at once"),
        ]
    )
    func closeCodes(code: Int, expected: String) async throws {
        try await withInMemoryClient { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await harness.established()
            _ = await states.connectedSocketID()
            first.close(code: code, reason: "test")
            switch expected {
            case "failed":
                let failure = await states.collect { $0.failure != nil }.last?.failure
                #expect(failure?.closeCode == code)
                #expect(harness.transport.connections.count == 1, "a 40xx close is never retried")
            case "backs off":
                let reconnecting = await states.collect(until: \.isReconnecting).last
                guard case .reconnecting(_, let delay, _)? = reconnecting else { return }
                #expect(delay >= .seconds(1))
                await harness.clock.waitForSleepers()
                #expect(harness.transport.connections.count == 1, "nothing before the delay")
                harness.clock.advance(by: delay)
                _ = await harness.transport.nextConnection()
            default:
                // No time passes: the second connection comes without any timer.
                let second = await harness.transport.nextConnection()
                second.establish(socketID: "2.2")
                #expect(await states.connectedSocketID() == "2.2")
            }
        }
    }

    @Test("a socket that stops answering is found by the ping and the pong timeout, then replaced")
    func halfOpenSocket() async throws {
        try await withInMemoryClient { harness in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await harness.transport.nextConnection()
            first.establish(socketID: "1.1", activityTimeout: 10)
            _ = await states.connectedSocketID()
            await harness.clock.waitForDeadlines([.seconds(10)])
            harness.clock.advance(by: .seconds(10))
            #expect(await first.nextMessage(named: "pusher:ping").contains("pusher:ping"))
            await harness.clock.waitForDeadlines([.seconds(40)])
            harness.clock.advance(by: .seconds(30))
            let second = await harness.transport.nextConnection()
            second.establish(socketID: "2.2")
            #expect(await states.connectedSocketID() == "2.2")
        }
    }

    @Test("a consumer that falls behind is failed alone; the other channel's consumer gets every event")
    func slowConsumerIsolated() async throws {
        try await withInMemoryClient { harness in
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            let slow = harness.client.events(on: "slow", buffering: BufferingPolicy(limit: 2, whenFull: .fail))
            async let slowResult = BufferingTests.stalledConsumer(slow, gate: gate, limit: Int.max)
            async let fast = collect(harness.client.events(on: "fast"), count: 5)
            let peer = await harness.established()
            // Each consumer's channel is subscribed once the consumer is registered.
            _ = await peer.nextMessage(named: "pusher:subscribe")
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(Self.succeeded("slow"), Self.succeeded("fast"))
            var frames: [String] = []
            for index in 1...5 {
                frames.append(Self.event("e", on: "slow", data: "\(index)"))
                frames.append(Self.event("e", on: "fast", data: "\(index)"))
            }
            for frame in frames { peer.send(frame) }
            let fastData = try await fast.map(\.data)
            #expect(fastData == ["1", "2", "3", "4", "5"])
            open.yield()
            let result = await slowResult
            // Event 1 went to the waiting consumer; 2 and 3 filled its buffer; 4 failed it.
            #expect(result.data == ["1", "2", "3"])
            #expect(result.error?.code == .consumerTooSlow)
            #expect(await peer.nextMessage(named: "pusher:unsubscribe").contains(#""channel":"slow""#))
        }
    }

    @Test("leaving the loop unsubscribes the channel once its last consumer is gone")
    func leavingUnsubscribes() async throws {
        try await withInMemoryClient { harness in
            let peer = await harness.established()
            async let one = collect(harness.client.events(on: "news"), count: 1)
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(Self.succeeded("news"), Self.event("n", on: "news", data: "x"))
            let data = try await one.map(\.data)
            #expect(data == ["x"])
            #expect(
                await peer.nextMessage(named: "pusher:unsubscribe")
                    == #"{"event":"pusher:unsubscribe","data":{"channel":"news"}}"#)
            #expect(await harness.client.consumerCount(on: "news") == 0)
        }
    }
}

@Suite("Several channels in one sequence", .timeLimit(.minutes(1)))
struct InMemoryMultiChannelTests {
    @Test("events(on: [channels]) subscribes each channel once and delivers all of them in order")
    func severalChannels() async throws {
        try await withInMemoryClient { harness in
            async let received = collect(harness.client.events(on: ["a", "b"]), count: 3)
            let peer = await harness.established()
            let subscribes = [
                await peer.nextMessage(named: "pusher:subscribe"), await peer.nextMessage(named: "pusher:subscribe"),
            ]
            #expect(
                subscribes.sorted() == [
                    #"{"event":"pusher:subscribe","data":{"channel":"a"}}"#,
                    #"{"event":"pusher:subscribe","data":{"channel":"b"}}"#,
                ])
            peer.send(
                InMemoryClientTests.succeeded("a"),
                InMemoryClientTests.succeeded("b"),
                InMemoryClientTests.event("e", on: "a", data: "1"),
                InMemoryClientTests.event("e", on: "b", data: "2"),
                InMemoryClientTests.event("e", on: "a", data: "3")
            )
            let events = try await received
            #expect(events.map(\.data) == ["1", "2", "3"])
            #expect(events.map(\.channel) == ["a", "b", "a"])
        }
    }
}
