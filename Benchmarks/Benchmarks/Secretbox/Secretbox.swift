// SPDX-License-Identifier: MIT

import Benchmark
import PusherBenchmarkSupport

/// Opening one encrypted event of 100 bytes, with the package's Swift secretbox and with libsodium
/// (Linux): `open-event-*` as a client opens every event (fields read, base64 decoded, box opened,
/// UTF-8 checked into a string), `open-box-*` the box alone. One iteration is 1,000 events; the
/// library's output scales the figures to one event (marked `*`).
let benchmarks: @Sendable () -> Void = {
    // Wall clock only for time: an iteration (1,000 opens, well under a millisecond) is below the CPU
    // clock's resolution. One allocation per event: the plaintext's string.
    let tolerances: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: .init(relative: [.p90: 35]),
        .mallocCountTotal: .init(relative: [.p90: 10]),
    ]
    for implementation in SecretBoxWorkload.Implementation.available {
        let workload = SecretBoxWorkload(implementation: implementation, plaintextBytes: 100)
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal],
            scalingFactor: .kilo,
            maxDuration: .seconds(5),
            maxIterations: 2_000,
            thresholds: tolerances
        )
        Benchmark("open-event-\(implementation.rawValue)", configuration: configuration) { benchmark in
            blackHole(workload.openEvents(times: benchmark.scaledIterations.count))
        }
        Benchmark("open-box-\(implementation.rawValue)", configuration: configuration) { benchmark in
            blackHole(workload.openBoxes(times: benchmark.scaledIterations.count))
        }
    }
}
