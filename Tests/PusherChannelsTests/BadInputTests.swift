// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Bad input gets a typed error and nothing else is lost", .timeLimit(.minutes(1)))
struct BadInputTests {
    @Test("malformed frames and pusher:error are reported; events keep flowing on every channel")
    func malformedFrames() async throws {
        try await withHarness { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            async let a = collect(harness.client.events(on: "a"), count: 2)
            async let b = collect(harness.client.events(on: "b"), count: 1)
            await harness.server.waitForSubscribers(of: "a")
            await harness.server.waitForSubscribers(of: "b")
            await harness.server.trigger(channel: "a", event: "first", data: "1")
            for garbage in ["not json", #"{"channel":"a"}"#, #"{"event":"x","channel":"a","data":"\q"}"#] {
                await harness.server.send(raw: garbage)
            }
            await harness.server.sendError(message: "Client event rejected due to rate limit", code: 4301)
            await harness.server.send(
                raw: #"{"event":"pusher:error","data":"{\"message\":\"string-encoded\",\"code\":4302}"}"#)
            await harness.server.trigger(channel: "a", event: "second", data: "2")
            await harness.server.trigger(channel: "b", event: "only", data: "3")
            let aResult = try await a
            #expect(aResult.map(\.name) == ["first", "second"])
            let bResult = try await b
            #expect(bResult.map(\.name) == ["only"])
            var reported: [PusherError] = []
            for _ in 0..<5 { if let error = await errors.next() { reported.append(error) } }
            #expect(reported.prefix(3).allSatisfy { $0.code == .malformedMessage })
            #expect(reported[3].code == .serverError)
            #expect(reported[3].closeCode == 4301)
            #expect(reported[3].message == "Client event rejected due to rate limit")
            #expect(reported[4].closeCode == 4302)
            #expect(await harness.client.state.isConnected)
        }
    }

    @Test(
        "a message over maximumMessageSize: closed with 1009, reported as messageTooLarge naming the limit, then reconnected"
    )
    func messageTooLarge() async throws {
        // Loopback: the size limit is enforced by the WebSocket transport, on frames.
        try await withHarness(options: { $0.maximumMessageSize = 1_000 }, loopback: true) { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            async let events = collect(harness.client.events(on: "a"), count: 2)
            await harness.server.waitForSubscribers(of: "a")
            await harness.server.trigger(channel: "a", event: "small", data: "1")
            await harness.server.trigger(channel: "a", event: "big", data: String(repeating: "x", count: 2_000))
            let error = await errors.next()
            #expect(error?.code == .messageTooLarge)
            #expect(error?.closeCode == 1009)
            #expect(error?.message.contains("1000 bytes") == true)
            guard case .reconnecting(1, let delay, let cause)? = await states.collect(until: { $0.isReconnecting }).last
            else { return }
            #expect(cause.code == .messageTooLarge)
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: delay)
            await harness.server.waitForConnections(count: 2)
            await harness.server.waitForSubscribers(of: "a")
            await harness.server.trigger(channel: "a", event: "after", data: "2")
            let names = try await events.map(\.name)
            #expect(names == ["small", "after"])
        }
    }

    @Test(
        "invalid, reserved and 165-byte channel names throw from the sequence",
        arguments: ["", "bad name", "#server-to-user-1", String(repeating: "a", count: 165)])
    func invalidName(name: String) async throws {
        try await withHarness { harness in
            await #expect {
                for try await _ in harness.client.events(on: name) {}
            } throws: { error in
                (error as? PusherError)?.code == .invalidChannelName
            }
        }
    }

    @Test(
        "channels that need authorization fail with a typed error without an authorizer",
        arguments: ["private-x", "presence-y"])
    func needsAuthorization(name: String) async throws {
        try await withHarness { harness in
            await #expect {
                for try await _ in harness.client.events(on: name) {}
            } throws: { error in
                (error as? PusherError)?.code == .authorizationRequired
            }
            #expect(await harness.client.channels.isEmpty)
        }
    }

    @Test("a pusher:subscription_error fails that channel's consumers only; it can be retried")
    func subscriptionError() async throws {
        try await withHarness { harness in
            var signals = harness.client.subscriptionEvents().makeAsyncIterator()
            async let healthy = collect(harness.client.events(on: "healthy"), count: 1)
            let doomed = Task { try await collect(harness.client.events(on: "doomed"), count: 1) }
            await harness.server.waitForSubscribers(of: "doomed")
            await harness.server.waitForSubscribers(of: "healthy")
            await harness.server.send(
                raw: #"{"event":"pusher:subscription_error","channel":"doomed","data":{"message":"nope","code":403}}"#)
            await #expect {
                _ = try await doomed.value
            } throws: { error in
                let error = error as? PusherError
                return error?.code == .subscriptionFailed && error?.channel == "doomed" && error?.message == "nope"
            }
            var failure: SubscriptionEvent?
            while let signal = await signals.next() {
                if case .failed = signal {
                    failure = signal
                    break
                }
            }
            #expect(failure?.channel == "doomed")
            await harness.server.trigger(channel: "healthy", event: "still", data: "here")
            let healthyResult = try await healthy
            #expect(healthyResult.map(\.name) == ["still"])
            // Retrying subscribes again.
            async let retry = collect(harness.client.events(on: "doomed"), count: 1)
            await harness.server.waitForMessages(named: "pusher:subscribe", count: 3)
            try await LivenessTests.waitUntilClientProcessed(harness)
            await harness.server.trigger(channel: "doomed", event: "back", data: "")
            let retryResult = try await retry
            #expect(retryResult.map(\.name) == ["back"])
        }
    }

    @Test("a frame with invalid UTF-8 affects only itself: the connection and other events stay")
    func invalidUTF8() async throws {
        // Loopback: the bytes of a text frame are decoded by the WebSocket transport.
        try await withHarness(loopback: true) { harness in
            async let received = collect(harness.client.events(on: "feed"), count: 2)
            await harness.server.waitForSubscribers(of: "feed")
            let broken = Array(#"{"event":"bad","channel":"feed","data":"x"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
            await harness.server.send(rawBytes: broken)
            await harness.server.trigger(channel: "feed", event: "good", data: "y")
            let events = try await received
            #expect(events.map(\.name) == ["bad", "good"])
            #expect(events[0].data == "x\u{FFFD}\u{FFFD}")
            #expect(await harness.server.snapshot.connections.count == 1)
            #expect(await harness.client.state.isConnected)
        }
    }

    @Test("binary frames are reported as malformed and the connection stays up")
    func binaryFrame() async throws {
        // Loopback: a binary frame is told apart from text by the WebSocket transport.
        try await withHarness(loopback: true) { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.sendBinary([0, 1, 2])
            let error = await errors.next()
            #expect(error?.code == .malformedMessage)
            #expect(await harness.client.state.isConnected)
        }
    }
}
