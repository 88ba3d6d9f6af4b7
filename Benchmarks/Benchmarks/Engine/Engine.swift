// SPDX-License-Identifier: MIT

import Benchmark
import PusherBenchmarkSupport

/// The engine alone: pre-encoded frames through `ClientEngine` to a consumer's buffer and out of
/// it, with no socket and no other thread. Its figures are the floor of the end-to-end ones.
let benchmarks: @Sendable () -> Void = {
    let workload = EngineWorkload(events: 100_000)
    Benchmark(
        "engine-plain-1-channel",
        configuration: .init(
            metrics: [.cpuTotal, .wallClock, .mallocCountTotal, .peakMemoryResident],
            scalingFactor: .mega,
            maxDuration: .seconds(10),
            maxIterations: 20
        )
    ) { benchmark in
        for _ in 0..<(benchmark.scaledIterations.count / workload.events) {
            let delivered = try await workload.run()
            guard delivered == workload.events else { fatalError("delivered \(delivered) of \(workload.events)") }
        }
    }
}
