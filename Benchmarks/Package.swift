// swift-tools-version: 6.1
// The package's benchmarks (ordo-one/benchmark), in a package of their own so that users of
// swift-pusher-channels never resolve the benchmark library. Run them with ../scripts/benchmark.
import PackageDescription

let package = Package(
    name: "swift-pusher-channels-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "swift-pusher-channels", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        // A real metrics backend for the `-metrics` variant: what the client's counters cost.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // The engine alone: pre-encoded frames through the protocol engine to a consumer's buffer.
        .executableTarget(
            name: "Engine",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PusherBenchmarkSupport", package: "swift-pusher-channels"),
            ],
            path: "Benchmarks/Engine",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Opening one encrypted event: the package's Swift secretbox against libsodium (Linux).
        .executableTarget(
            name: "Secretbox",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PusherBenchmarkSupport", package: "swift-pusher-channels"),
            ],
            path: "Benchmarks/Secretbox",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // End to end through the public API: a PusherLoadServer (PusherBenchmarkSupport) on loopback,
        // one PusherClient.
        .executableTarget(
            name: "EndToEnd",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PusherChannels", package: "swift-pusher-channels"),
                .product(name: "PusherBenchmarkSupport", package: "swift-pusher-channels"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Benchmarks/EndToEnd",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Publishing from a server: a trigger built and signed, and triggers to the in-process
        // FakePusherServer's HTTP API over one pooled connection.
        .executableTarget(
            name: "Publish",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PusherChannelsServer", package: "swift-pusher-channels"),
                .product(name: "PusherChannelsTesting", package: "swift-pusher-channels"),
                .product(name: "PusherBenchmarkSupport", package: "swift-pusher-channels"),
            ],
            path: "Benchmarks/Publish",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
