// SPDX-License-Identifier: MIT

import CoreMetrics
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

/// A user's log handler or metrics backend may call back into the client: the client tells them
/// what happened after it released its state lock (before, such a call deadlocked on the lock).
@Suite("Observers that call back into the client", .timeLimit(.minutes(1)))
struct ReentrantObserverTests {
    @Test("a log handler and a metrics backend that read the client from inside their handlers work")
    func callingBack() async throws {
        let calls = ClientCallbacks()
        var logger = Logger(
            label: "reentrant",
            factory: { _ in
                ClosureLogHandler { _, _ in calls.callBack(fromLog: true) }
            })
        logger.logLevel = .trace
        let metrics = TestMetrics()
        try await FakePusherServer.withInMemory { server in
            var options = server.clientConfiguration()
            options.metrics = .init(factory: CallingBackMetrics(base: metrics, calls: calls))
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock(), logger: logger)
            calls.client = client
            try await withRunningClient(client) { client in
                var events = client.events(on: "feed").makeAsyncIterator()
                await server.waitForSubscribers(of: "feed")
                await server.trigger(channel: "feed", event: "e", data: "1")
                let first = try await events.next()
                #expect(first?.data == "1")
                await client.observationsTold()
            }
            // Every line and every counter increment read the key from inside the handler.
            #expect(calls.logLines > 0)
            #expect(calls.counterIncrements > 0)
            #expect(calls.keys == [server.appKey])
        }
        #expect(try metrics.expectCounter("pusher_events_received_total").totalValue == 1)
    }
}

/// What the handlers saw when they called back.
final class ClientCallbacks: Sendable {
    private struct State {
        var client: PusherClient?
        var keys: Set<String> = []
        var logLines = 0
        var counterIncrements = 0
    }

    private let state = NIOLockedValueBox(State())

    var client: PusherClient? {
        get { self.state.withLockedValue { $0.client } }
        set { self.state.withLockedValue { $0.client = newValue } }
    }
    var keys: Set<String> { self.state.withLockedValue { $0.keys } }
    var logLines: Int { self.state.withLockedValue { $0.logLines } }
    var counterIncrements: Int { self.state.withLockedValue { $0.counterIncrements } }

    /// Reads the client's key (which takes the client's state lock), outside this box's lock.
    func callBack(fromLog: Bool) {
        guard let client = self.client else { return }
        let key = client.key
        self.state.withLockedValue { state in
            state.keys.insert(key)
            if fromLog { state.logLines += 1 } else { state.counterIncrements += 1 }
        }
    }
}

/// swift-metrics' `TestMetrics`, with counters that call back into the client when incremented.
struct CallingBackMetrics: MetricsFactory {
    let base: TestMetrics
    let calls: ClientCallbacks

    final class CallingBackCounter: CounterHandler {
        let base: any CounterHandler
        let calls: ClientCallbacks
        init(base: any CounterHandler, calls: ClientCallbacks) {
            self.base = base
            self.calls = calls
        }
        func increment(by amount: Int64) {
            self.calls.callBack(fromLog: false)
            self.base.increment(by: amount)
        }
        func reset() { self.base.reset() }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        CallingBackCounter(base: self.base.makeCounter(label: label, dimensions: dimensions), calls: self.calls)
    }
    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        self.base.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        self.base.makeMeter(label: label, dimensions: dimensions)
    }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        self.base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        self.base.makeTimer(label: label, dimensions: dimensions)
    }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
