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
    // Socket reads into WebSocket frames: the client's WebSocketFrameReader (NIO's frame decoder
    // driven directly; installed by the client's own upgrader) against NIO's ByteToMessageHandler.
    let frameReading = FrameReadingWorkload(frames: 100_000)
    for reader in FrameReadingWorkload.Reader.allCases {
        Benchmark(
            "frames-\(reader.rawValue)-reader",
            configuration: .init(
                metrics: [.cpuTotal, .wallClock, .mallocCountTotal], scalingFactor: .mega, maxDuration: .seconds(10),
                maxIterations: 20)
        ) { benchmark in
            for _ in 0..<max(1, benchmark.scaledIterations.count / frameReading.frames) {
                let frames = try frameReading.run(reader)
                guard frames == frameReading.frames else { fatalError("decoded \(frames) of \(frameReading.frames)") }
            }
        }
    }
    // Entering the client's state once per socket read: a lock on the reading thread (the design)
    // against a hop onto an actor from that thread (the alternative the design notes weigh).
    if #available(macOS 15, *) {
        let entryConfiguration = Benchmark.Configuration(
            metrics: [.cpuTotal, .wallClock, .mallocCountTotal], scalingFactor: .mega, maxDuration: .seconds(5),
            maxIterations: 20)
        Benchmark("entry-lock-per-batch", configuration: entryConfiguration) { benchmark in
            blackHole(EntryCost.locked(batches: benchmark.scaledIterations.count))
        }
        Benchmark("entry-actor-hop-per-batch", configuration: entryConfiguration) { benchmark in
            blackHole(await EntryCost.hopped(batches: benchmark.scaledIterations.count))
        }
        Benchmark("entry-actor-handed-over-per-batch", configuration: entryConfiguration) { benchmark in
            blackHole(await EntryCost.handedOver(batches: benchmark.scaledIterations.count))
        }
    }
}
