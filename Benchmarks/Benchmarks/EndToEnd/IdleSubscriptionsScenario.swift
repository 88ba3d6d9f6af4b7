// SPDX-License-Identifier: MIT

import Benchmark
import PusherBenchmarkSupport
import PusherChannels

/// One iteration of the idle-subscriptions benchmark: once the client is connected, subscribe to
/// `channels` channels (one consumer task each), confirm that every consumer listens (one event
/// each), and measure the resident memory they added, per subscription, while they wait.
struct IdleSubscriptionsScenario {
    var channels: Int

    func run(_ benchmark: Benchmark) async throws {
        let configuration = PusherLoadServer.Configuration(channelCount: self.channels)
        try await PusherLoadServer.withRunning(configuration: configuration) { server in
            let client = PusherClient(key: "load", configuration: server.clientConfiguration())
            try await withRunningClient(client) { client in
                for await state in client.connectionStates where state.isConnected { break }
                let before = ResourceUsage.residentBytes() ?? 0
                let (probed, probe) = AsyncStream.makeStream(of: Void.self)
                try await withThrowingDiscardingTaskGroup { consumers in
                    let started = ContinuousClock.now
                    benchmark.startMeasurement()
                    for channel in configuration.channels {
                        consumers.addTask {
                            for try await _ in client.events(on: channel) { probe.yield() }
                        }
                    }
                    await server.waitUntilSubscribed()
                    let subscribed = ContinuousClock.now
                    await server.send(events: self.channels)
                    var listening = 0
                    for await _ in probed {
                        listening += 1
                        if listening == self.channels { break }
                    }
                    benchmark.stopMeasurement()
                    let after = ResourceUsage.residentBytes() ?? 0
                    benchmark.measurement(
                        EndToEndMetrics.residentBytesPerSubscription, (after - before) / self.channels)
                    let (seconds, attoseconds) = (subscribed - started).components
                    benchmark.measurement(
                        EndToEndMetrics.subscribeMilliseconds, Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
                    )
                    consumers.cancelAll()
                }
            }
        }
    }
}
