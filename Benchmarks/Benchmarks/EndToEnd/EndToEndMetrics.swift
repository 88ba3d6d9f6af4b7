// SPDX-License-Identifier: MIT

import Benchmark

/// The metrics of the end-to-end benchmarks and how far a run may stray from the checked-in
/// thresholds (`Benchmarks/Thresholds`) before `thresholds check` reports it.
///
/// One iteration is one whole scenario (200,000 events; or 10,000 subscriptions), which takes
/// longer than a second: the library's own `throughput` (whole iterations per second, as an
/// integer) would read 0 or 1, so events per second and CPU time per event are custom metrics
/// computed from the measured span. `cpuTotal`, `mallocCountTotal` and `wallClock` are per
/// iteration: divide by the iteration's events for per-event figures.
enum EndToEndMetrics {
    /// Events received per second, from the server's first write to the last event consumed.
    static let eventsPerSecond = BenchmarkMetric.custom(
        "eventsPerSecond", polarity: .prefersLarger, useScalingFactor: false)
    /// This process's user + system CPU time per event, in nanoseconds, over the same span.
    static let cpuNanosPerEvent = BenchmarkMetric.custom(
        "cpuNanosPerEvent", polarity: .prefersSmaller, useScalingFactor: false)
    /// Resident memory added by the subscriptions, per subscription, in bytes.
    static let residentBytesPerSubscription = BenchmarkMetric.custom(
        "residentBytesPerSubscription",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
    /// From the first subscription until the server has received every one, in milliseconds.
    static let subscribeMilliseconds = BenchmarkMetric.custom(
        "subscribeMilliseconds", polarity: .prefersSmaller, useScalingFactor: false)

    static let events: [BenchmarkMetric] = [
        eventsPerSecond, cpuNanosPerEvent, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .wallClock,
    ]

    static let idleSubscriptions: [BenchmarkMetric] = [
        residentBytesPerSubscription, subscribeMilliseconds, .mallocCountTotal, .peakMemoryResident, .wallClock,
    ]

    /// Relative tolerances at p90, in percent, of the events benchmarks. Timing on a shared
    /// 2-core machine is noisy (wall-clock figures more than CPU time); allocation counts much less.
    static var eventsTolerances: [BenchmarkMetric: BenchmarkThresholds] {
        [
            eventsPerSecond: .init(relative: [.p90: 35]),
            cpuNanosPerEvent: .init(relative: [.p90: 25]),
            .cpuTotal: .init(relative: [.p90: 25]),
            .wallClock: .init(relative: [.p90: 35]),
            .mallocCountTotal: .init(relative: [.p90: 10]),
            .peakMemoryResident: .init(relative: [.p90: 20]),
        ]
    }

    /// Relative tolerances at p90, in percent, of the idle-subscriptions benchmark.
    static var idleSubscriptionsTolerances: [BenchmarkMetric: BenchmarkThresholds] {
        [
            residentBytesPerSubscription: .init(relative: [.p90: 15]),
            subscribeMilliseconds: .init(relative: [.p90: 40]),
            .wallClock: .init(relative: [.p90: 40]),
            .mallocCountTotal: .init(relative: [.p90: 10]),
            .peakMemoryResident: .init(relative: [.p90: 20]),
        ]
    }
}
