// SPDX-License-Identifier: MIT

import Benchmark

/// End-to-end benchmarks through the public API: a `PusherLoadServer` on loopback writes
/// pre-encoded events as fast as the socket takes them; one `PusherClient` consumes them with
/// `for try await`, one loop per channel. The server runs in the measured process, so CPU time,
/// allocations and memory include its (small) share.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: EndToEndMetrics.events,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 5,
        thresholds: EndToEndMetrics.eventsTolerances
    )

    Benchmark("plain-1-channel") { benchmark in
        try await EventsScenario(channels: 1, encrypted: false).run(benchmark)
    }
    Benchmark("plain-1-channel-metrics") { benchmark in
        try await EventsScenario(channels: 1, encrypted: false, metrics: true).run(benchmark)
    }
    Benchmark("plain-10000-channels") { benchmark in
        try await EventsScenario(channels: 10_000, encrypted: false).run(benchmark)
    }
    Benchmark("encrypted-1-channel") { benchmark in
        try await EventsScenario(channels: 1, encrypted: true).run(benchmark)
    }
    Benchmark(
        "idle-10000-subscriptions",
        // One iteration, no warm-up: the benchmark runs in a process of its own, and only the first
        // subscriptions grow its resident memory (later ones reuse what the first ones freed).
        configuration: .init(
            metrics: EndToEndMetrics.idleSubscriptions,
            warmupIterations: 0,
            maxIterations: 1,
            thresholds: EndToEndMetrics.idleSubscriptionsTolerances
        )
    ) { benchmark in
        try await IdleSubscriptionsScenario(channels: 10_000).run(benchmark)
    }
}
