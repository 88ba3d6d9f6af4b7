// SPDX-License-Identifier: MIT

import Benchmark
import Prometheus
import PusherBenchmarkSupport
import PusherChannels

/// One iteration of an events benchmark: connect one client to a load server, subscribe to every
/// channel (one consumer task each), then measure from the server's first write until every
/// consumer has its share of the events (round-robin, as the server sends them).
struct EventsScenario {
    var channels: Int
    var encrypted: Bool
    var events = 200_000
    var payloadBytes = 100
    /// Whether the client records its metrics into a Prometheus registry (otherwise no metrics
    /// backend is bootstrapped, and the client records nothing).
    var metrics = false

    func run(_ benchmark: Benchmark) async throws {
        let configuration = PusherLoadServer.Configuration(
            channelCount: self.channels,
            payloadBytes: self.payloadBytes,
            encrypted: self.encrypted
        )
        try await PusherLoadServer.withRunning(configuration: configuration) { server in
            var options = server.clientConfiguration()
            if self.metrics {
                options.metrics.factory = PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())
            }
            let client = PusherClient(key: "load", configuration: options)
            try await withRunningClient(client) { client in
                var started: (instant: ContinuousClock.Instant, usage: ResourceUsage)?
                try await withThrowingDiscardingTaskGroup { consumers in
                    for (index, channel) in configuration.channels.enumerated() {
                        let quota = self.events / self.channels + (index < self.events % self.channels ? 1 : 0)
                        consumers.addTask {
                            var received = 0
                            // The default buffering, as users get it: a consumer that lags pauses
                            // reading from the socket (nothing is lost, memory stays bounded).
                            for try await _ in client.events(on: channel) {
                                received += 1
                                if received == quota { return }
                            }
                            throw PusherError(
                                .connectionClosed, "\(channel) ended after \(received) of \(quota) events")
                        }
                    }
                    await server.waitUntilSubscribed()
                    started = (.now, .current())
                    benchmark.startMeasurement()
                    await server.send(events: self.events)
                }
                let ended = (instant: ContinuousClock.Instant.now, usage: ResourceUsage.current())
                benchmark.stopMeasurement()
                guard let started else { return }
                let (seconds, attoseconds) = (ended.instant - started.instant).components
                let elapsed = Double(seconds) + Double(attoseconds) / 1e18
                benchmark.measurement(EndToEndMetrics.eventsPerSecond, Int(Double(self.events) / elapsed))
                let cpu = ended.usage.cpuSeconds - started.usage.cpuSeconds
                benchmark.measurement(EndToEndMetrics.cpuNanosPerEvent, Int(cpu * 1e9 / Double(self.events)))
            }
        }
    }
}
