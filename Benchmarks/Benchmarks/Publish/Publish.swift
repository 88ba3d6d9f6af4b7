// SPDX-License-Identifier: MIT

import Benchmark
import PusherBenchmarkSupport
import PusherChannelsServer
import PusherChannelsTesting

/// Publishing from a server: what one trigger costs before the network (`signed-trigger`: the
/// request built, its JSON body serialized once, `body_md5` and the HMAC-SHA256 signature), and
/// how many triggers one `PusherServer` sends per second over one pooled connection to the
/// in-process `FakePusherServer` (`trigger-loopback`: sequential awaits, the fake server checking
/// every signature in the same process). One iteration is 1,000 triggers; the library's output scales
/// its figures to one trigger (marked `*`), the thresholds hold whole iterations.
let benchmarks: @Sendable () -> Void = {
    // How far a run may stray from Benchmarks/Thresholds (relative, in percent, at p90) before
    // `thresholds check` reports it: timing is noisy on a shared 2-core machine, allocations less.
    let tolerances: [BenchmarkMetric: BenchmarkThresholds] = [
        .cpuTotal: .init(relative: [.p90: 25]),
        .wallClock: .init(relative: [.p90: 35]),
        .mallocCountTotal: .init(relative: [.p90: 10]),
    ]
    let data = #"{"id":42,"text":"\#(String(repeating: "x", count: 80))"}"#  // about 100 bytes

    Benchmark(
        "signed-trigger",
        configuration: .init(
            metrics: [.cpuTotal, .wallClock, .mallocCountTotal],
            scalingFactor: .kilo,
            maxDuration: .seconds(10),
            maxIterations: 1_000,
            thresholds: tolerances
        )
    ) { benchmark in
        let configuration = try PusherServerConfiguration(
            appID: "1234", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", cluster: "mt1")
        let workload = TriggerSigningWorkload(
            configuration: configuration, channel: "orders", event: "created", data: data,
            timestamp: 1_700_000_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try workload.signOnce())
        }
        benchmark.stopMeasurement()
    }

    Benchmark(
        "trigger-loopback",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            scalingFactor: .kilo,
            maxDuration: .seconds(20),
            maxIterations: 10,
            thresholds: tolerances.merging([.peakMemoryResident: .init(relative: [.p90: 20])]) { $1 }
        )
    ) { benchmark in
        let fake = FakePusherServer.Configuration(appSecret: "publish-benchmark-secret")
        try await FakePusherServer.withRunning(configuration: fake) { server in
            let configuration = try PusherServerConfiguration(
                appID: server.appID, key: server.appKey, secret: "publish-benchmark-secret", host: server.host,
                port: server.port, useTLS: false)
            let pusher = PusherServer(configuration: configuration)
            // One trigger before measuring opens the pooled connection the others reuse.
            try await pusher.trigger(channel: "orders", event: "created", data: data)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                try await pusher.trigger(channel: "orders", event: "created", data: data)
            }
            benchmark.stopMeasurement()
        }
    }
}
