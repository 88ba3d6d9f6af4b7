// SPDX-License-Identifier: MIT

import CoreMetrics
import MetricsTestKit
import PusherChannels
import PusherChannelsTesting
import Testing

/// What a metrics backend sees: swift-metrics' `TestMetrics`, given to each client through its
/// options (no global bootstrap, so the tests run in parallel).
@Suite("Metrics", .timeLimit(.minutes(1)))
struct MetricsTests {
    static func event(_ name: String, on channel: String, data: String = "x") -> String {
        #"{"event":"\#(name)","channel":"\#(channel)","data":"\#(data)"}"#
    }

    static func succeeded(_ channel: String) -> String {
        #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"{}"}"#
    }

    func withMeasuredClient(
        channelLabel: Bool = false,
        options configure: @escaping (inout PusherClientConfiguration) -> Void = { _ in },
        _ body: (InMemoryHarness, TestMetrics) async throws -> Void
    ) async throws {
        let metrics = TestMetrics()
        try await withInMemoryClient(configuration: {
            $0.metrics = .init(factory: metrics, includesChannelLabel: channelLabel)
            configure(&$0)
        }) { harness in
            try await body(harness, metrics)
        }
    }

    @Test("events received and delivered are counted once per batch, not once per event")
    func eventsCountedPerBatch() async throws {
        try await withMeasuredClient { harness, metrics in
            let first = collecting(harness.client.events(on: "prices"), count: 3)
            let second = collecting(harness.client.events(on: "prices"), count: 3)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                Self.succeeded("prices"), Self.event("p", on: "prices"), Self.event("p", on: "prices"),
                Self.event("p", on: "prices"))
            _ = try await (first.value, second.value)
            await harness.client.observationsTold()  // What the batch gathered is told.
            let received = try metrics.expectCounter("pusher_events_received_total")
            let delivered = try metrics.expectCounter("pusher_events_delivered_total")
            #expect(received.totalValue == 3)
            #expect(delivered.totalValue == 6, "3 events to each of 2 consumers")
            #expect(received.values == [3], "one increment for the whole read")
            #expect(delivered.values == [6])
            #expect(metrics.counters.allSatisfy { !$0.dimensions.contains { $0.0 == "channel" } })
        }
    }

    @Test("channel labels are opt-in: with them, deliveries are counted per channel")
    func channelLabels() async throws {
        try await withMeasuredClient(channelLabel: true) { harness, metrics in
            async let a = collect(harness.client.events(on: "a"), count: 2)
            async let b = collect(harness.client.events(on: "b"), count: 1)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                Self.succeeded("a"), Self.succeeded("b"), Self.event("e", on: "a"), Self.event("e", on: "b"),
                Self.event("e", on: "a"))
            _ = try await (a, b)
            await harness.client.observationsTold()
            #expect(try metrics.expectCounter("pusher_events_delivered_total", [("channel", "a")]).totalValue == 2)
            #expect(try metrics.expectCounter("pusher_events_delivered_total", [("channel", "b")]).totalValue == 1)
            #expect(try metrics.expectCounter("pusher_events_received_total").totalValue == 3)
            // One label set per name: no unlabelled twin (Prometheus refuses a name with two).
            for label in [
                "pusher_events_delivered_total", "pusher_events_dropped_total", "pusher_consumers_failed_total",
            ] {
                #expect(metrics.counters(label: label).allSatisfy { $0.dimensions.contains { $0.0 == "channel" } })
            }
        }
    }

    @Test("events dropped by a full buffer and consumers failed for being too slow are counted")
    func droppedAndFailed() async throws {
        try await withMeasuredClient(options: { $0.buffering = BufferingPolicy(limit: 2, whenFull: .dropNewest) }) {
            harness, metrics in
            // A consumer that registers and then does not read: its buffer holds 2 events (plus the
            // one it is owed); the rest of the batch is dropped.
            let slow = harness.client.events(on: "feed")
            var iterator = slow.makeAsyncIterator()
            let failing = harness.client.events(on: "feed", buffering: BufferingPolicy(limit: 1, whenFull: .fail))
            var failingIterator = failing.makeAsyncIterator()
            async let firstSlow = iterator.next()
            async let firstFailing = failingIterator.next()
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                Self.succeeded("feed"), Self.event("e", on: "feed", data: "1"), Self.event("e", on: "feed", data: "2"),
                Self.event("e", on: "feed", data: "3"), Self.event("e", on: "feed", data: "4"),
                Self.event("e", on: "feed", data: "5"), Self.event("e", on: "feed", data: "6"))
            _ = try await (firstSlow, firstFailing)
            await harness.client.observationsTold()
            #expect(try metrics.expectCounter("pusher_events_received_total").totalValue == 6)
            let dropped = try metrics.expectCounter("pusher_events_dropped_total").totalValue
            #expect(dropped == 3, "6 events, room for 3 in the slow consumer's buffer")
            let delivered = try metrics.expectCounter("pusher_events_delivered_total").totalValue
            #expect(delivered == 5, "3 taken by the slow consumer, 2 by the failing one before it failed")
            #expect(try metrics.expectCounter("pusher_consumers_failed_total").totalValue == 1)
        }
    }

    @Test("state changes by state, reconnects by cause, and the connected gauge")
    func connectionStates() async throws {
        try await withMeasuredClient { harness, metrics in
            var states = harness.client.connectionStates.makeAsyncIterator()
            let first = await harness.established()
            _ = await states.connectedSocketID()
            #expect(try metrics.expectMeter("pusher_connected").lastValue == 1)
            first.close(code: 4200, reason: "restarting")
            _ = await states.collect(until: \.isReconnecting)
            #expect(try metrics.expectMeter("pusher_connected").lastValue == 0)
            let second = await harness.established(socketID: "2.2")
            _ = await states.connectedSocketID()
            // A half-open socket: the ping goes unanswered and the pong timeout drops it.
            _ = second
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: .seconds(120))
            _ = await second.nextMessage(named: "pusher:ping")
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: .seconds(30))
            _ = await states.collect(until: \.isReconnecting)
            await harness.client.observationsTold()
            #expect(
                try metrics.expectCounter("pusher_reconnects_total", [("cause", "connection_closed")]).totalValue == 1)
            #expect(try metrics.expectCounter("pusher_reconnects_total", [("cause", "pong_timeout")]).totalValue == 1)
            let connected = try metrics.expectCounter("pusher_connection_state_changes_total", [("state", "connected")])
            #expect(connected.totalValue == 2)
            let reconnecting = try metrics.expectCounter(
                "pusher_connection_state_changes_total", [("state", "reconnecting")])
            #expect(reconnecting.totalValue == 2)
        }
    }

    @Test("the subscriptions gauge follows confirmed subscriptions, unsubscribes and disconnects")
    func subscriptionsGauge() async throws {
        try await withMeasuredClient { harness, metrics in
            var confirmations = harness.client.subscriptionEvents().makeAsyncIterator()
            let peer = await harness.established()
            let a = Task { try await collect(harness.client.events(on: "a"), count: 1) }
            let b = Task { try await collect(harness.client.events(on: "b"), count: 1) }
            _ = await peer.nextMessage(named: "pusher:subscribe")
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(Self.succeeded("a"), Self.succeeded("b"))
            _ = await confirmations.next()
            _ = await confirmations.next()
            await harness.client.observationsTold()
            let gauge = try metrics.expectMeter("pusher_subscriptions")
            #expect(gauge.lastValue == 2)
            b.cancel()
            _ = await peer.nextMessage(named: "pusher:unsubscribe")
            await harness.client.observationsTold()
            #expect(gauge.lastValue == 1)
            await harness.client.disconnect()
            #expect(gauge.lastValue == 0)
            a.cancel()
        }
    }

    @Test("clients sharing a metrics backend each add and remove their own part of the gauges")
    func sharedGauges() async throws {
        let metrics = TestMetrics()
        let measured: (inout PusherClientConfiguration) -> Void = { $0.metrics = .init(factory: metrics) }
        func subscribe(_ harness: InMemoryHarness, to channels: [String]) async -> [Task<[ChannelEvent], any Error>] {
            var confirmations = harness.client.subscriptionEvents().makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            let peer = await harness.established()
            _ = await states.connectedSocketID()
            let consumers = channels.map { channel in
                Task { try await collect(harness.client.events(on: channel), count: 1) }
            }
            for _ in channels { _ = await peer.nextMessage(named: "pusher:subscribe") }
            for channel in channels { peer.send(Self.succeeded(channel)) }
            for _ in channels { _ = await confirmations.next() }
            await harness.client.observationsTold()
            return consumers
        }
        try await withInMemoryClient(configuration: measured) { first in
            let firstConsumers = await subscribe(first, to: ["a"])
            let connected = try metrics.expectMeter("pusher_connected")
            let subscriptions = try metrics.expectMeter("pusher_subscriptions")
            #expect(connected.lastValue == 1)
            #expect(subscriptions.lastValue == 1)
            // The second client's run is cancelled while it is connected and its consumers iterate.
            let second = InMemoryHarness(configuration: measured)
            let secondConsumers = await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await second.client.run() }
                let consumers = await subscribe(second, to: ["b", "c"])
                #expect(connected.lastValue == 2, "both clients are connected")
                #expect(subscriptions.lastValue == 3, "1 + 2 confirmed subscriptions")
                group.cancelAll()
                await group.waitForAll()
                return consumers
            }
            for consumer in secondConsumers { consumer.cancel() }
            // The second client's run ended while connected: its share is gone, the first's stays.
            #expect(connected.lastValue == 1)
            #expect(subscriptions.lastValue == 1)
            for consumer in firstConsumers { consumer.cancel() }
        }
        #expect(try metrics.expectMeter("pusher_connected").lastValue == 0)
        #expect(try metrics.expectMeter("pusher_subscriptions").lastValue == 0)
    }

    @Test("authorizations: count by result and kind, latency on the injected clock")
    func authorizations() async throws {
        let (started, start) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        try await withMeasuredClient(options: { options in
            options.authorizer = ChannelAuthorizer { _, channel in
                if channel == "private-refused" { throw PusherError(.authorizationFailed, "refused") }
                start.yield()
                for await _ in released { break }
                return ChannelAuthorization(auth: "key:signature")
            }
        }) { harness, metrics in
            var events = harness.client.subscriptionEvents(on: "private-refused").makeAsyncIterator()
            let peer = await harness.established()
            let ok = Task { try await collect(harness.client.events(on: "private-ok"), count: 1) }
            let refused = Task { try await collect(harness.client.events(on: "private-refused"), count: 1) }
            _ = await events.next()  // the refusal
            for await _ in started { break }
            harness.clock.advance(by: .milliseconds(2500))
            release.yield()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            await harness.client.observationsTold()
            let success = try metrics.expectCounter(
                "pusher_authorizations_total", [("kind", "subscribe"), ("result", "success")])
            let failure = try metrics.expectCounter(
                "pusher_authorizations_total", [("kind", "subscribe"), ("result", "failure")])
            #expect(success.totalValue == 1)
            #expect(failure.totalValue == 1)
            let latency = try metrics.expectTimer(
                "pusher_authorization_duration_seconds", [("kind", "subscribe"), ("result", "success")])
            #expect(latency.values == [2_500_000_000], "2.5 s of virtual time, in nanoseconds")
            ok.cancel()
            refused.cancel()
        }
    }

    @Test("sign-ins: count by result and latency")
    func signIns() async throws {
        try await withMeasuredClient(options: { options in
            options.userAuthenticator = UserAuthenticator { _ in
                throw PusherError(.signInFailed, "the user-auth endpoint answered 500")
            }
        }) { harness, metrics in
            var users = harness.client.userStates.makeAsyncIterator()
            _ = await harness.established()
            try await harness.client.signIn()
            while let state = await users.next() {
                if case .failed = state { break }
            }
            await harness.client.observationsTold()
            #expect(try metrics.expectCounter("pusher_sign_ins_total", [("result", "failure")]).totalValue == 1)
            #expect(try metrics.expectTimer("pusher_sign_in_duration_seconds", [("result", "failure")]).values == [0])
        }
    }

    @Test("decryption failures by reason, and key reloads")
    func decryption() async throws {
        let secret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        try await withMeasuredClient(options: { options in
            options.authorizer = ChannelAuthorizer { _, _ in
                ChannelAuthorization(auth: "key:signature", sharedSecret: secret)
            }
        }) { harness, metrics in
            let channel = "private-encrypted-orders"
            var failures = harness.client.decryptionFailures(on: channel).makeAsyncIterator()
            let consumer = Task { try await collect(harness.client.events(on: channel), count: 1) }
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(Self.succeeded(channel))
            // Not a payload at all, then a well-formed one that does not open (a forgery).
            peer.send(#"{"event":"order","channel":"\#(channel)","data":"not json"}"#)
            let nonce = String(repeating: "A", count: 32)
            let forged = #"{\"nonce\":\"\#(nonce)\",\"ciphertext\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}"#
            peer.send(#"{"event":"order","channel":"\#(channel)","data":"\#(forged)"}"#)
            _ = await failures.next()
            _ = await failures.next()
            await harness.client.observationsTold()
            #expect(
                try metrics.expectCounter("pusher_decryption_failures_total", [("reason", "malformed_payload")])
                    .totalValue == 1)
            #expect(
                try metrics.expectCounter("pusher_decryption_failures_total", [("reason", "cannot_decrypt")])
                    .totalValue == 1)
            #expect(try metrics.expectCounter("pusher_key_reloads_total").totalValue == 1)
            let reloads = try metrics.expectCounter(
                "pusher_authorizations_total", [("kind", "key_reload"), ("result", "success")])
            #expect(reloads.totalValue == 1)
            consumer.cancel()
        }
    }

    @Test("each pause of reading for a consumer that is behind is counted once")
    func readingPausedCounted() async throws {
        try await withMeasuredClient(options: { $0.buffering.limit = 2 }) { harness, metrics in
            // The default policy, pauseReading: the consumer takes one event and waits for `gate`.
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            async let slow = BufferingTests.stalledConsumer(harness.client.events(on: "feed"), gate: gate, limit: 7)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(
                Self.succeeded("feed"), Self.event("e", on: "feed", data: "1"), Self.event("e", on: "feed", data: "2"),
                Self.event("e", on: "feed", data: "3"), Self.event("e", on: "feed", data: "4"),
                Self.event("e", on: "feed", data: "5"), Self.event("e", on: "feed", data: "6"))
            while await !harness.client.isReadingPaused { await Task.yield() }
            let paused = try metrics.expectCounter("pusher_reading_paused_total")
            #expect(paused.totalValue == 1)
            // The consumer catches up and reading goes on: no second pause is counted.
            peer.send(Self.event("e", on: "feed", data: "7"))
            open.yield()
            let result = await slow
            #expect(result.data == (1...7).map(String.init))
            #expect(paused.totalValue == 1)
        }
    }

    @Test("without a metrics backend the client records nothing")
    func noBackend() async throws {
        // The global factory is the no-op one unless the process bootstraps another: this test
        // process never does.
        try await withInMemoryClient { harness in
            async let events = collect(harness.client.events(on: "quiet"), count: 1)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            peer.send(Self.succeeded("quiet"), Self.event("e", on: "quiet"))
            _ = try await events
            #expect(await harness.client.recordsMetrics == false)
        }
        let metrics = TestMetrics()
        try await withMetricsFactory(metrics) {
            try await withInMemoryClient { harness in
                #expect(await harness.client.recordsMetrics)
            }
        }
    }
}
