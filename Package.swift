// swift-tools-version: 6.1
import PackageDescription

/// Upcoming-feature flags applied to every target of this package (see the loop at the bottom).
let upcomingFeatures: [SwiftSetting] = [
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0335-existential-any.md
    .enableUpcomingFeature("ExistentialAny"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-pusher-channels",
    // The first releases with the Swift 6 standard library APIs the code uses
    // (`String(validating:as:)`, typed-throws `AsyncSequence` with `next(isolation:)`).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "PusherChannels", targets: ["PusherChannels"]),
        .library(name: "PusherChannelsTesting", targets: ["PusherChannelsTesting"]),
        // The server side (HTTP API, authorizing your own clients, webhooks): its own product, so
        // client users don't link AsyncHTTPClient through it.
        .library(name: "PusherChannelsServer", targets: ["PusherChannelsServer"]),
        .executable(name: "pusher-channels", targets: ["PusherChannelsCLI"]),
        // Not for users: the load server and workloads of `pusher-channels bench` and of the
        // Benchmarks package (a package of its own, so it needs a product). No API stability.
        .library(name: "PusherBenchmarkSupport", targets: ["PusherBenchmarkSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // HTTP CONNECT proxies (`NIOHTTP1ProxyConnectHandler`); already in the graph through
        // AsyncHTTPClient.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // `HTTPFields` and `HTTPResponse.Status` in the server side's endpoint calls (what
        // Hummingbird 2 speaks; Vapor converts).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // `swift package generate-documentation` (scripts/docs); a plugin only, nothing is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The protocol engine: wire codec, channel names, connection and subscription state machines.
        // No I/O, no clock reads, no dependencies.
        .target(name: "PusherCore"),
        // System libcrypto for HMAC-SHA256 on Linux (CryptoKit on Apple platforms): no second
        // BoringSSL to compile.
        .systemLibrary(
            name: "COpenSSLCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The system's libsodium for NaCl secretbox (private-encrypted channels) on Linux: apt
        // libsodium-dev. Apple platforms use the package's Swift secretbox (XSalsa20Poly1305), as Linux
        // does with PUSHER_CRYPTO=swift.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // What the client and the server side share: HMAC-SHA256 and the protocol's signatures,
        // SHA-256, MD5 (body_md5), secretbox and the encrypted-channel keys. One implementation,
        // re-exported by both libraries.
        .target(
            name: "PusherCrypto",
            dependencies: [
                "PusherCore",
                .target(name: "COpenSSLCrypto", condition: .when(platforms: [.linux])),
                .target(name: "CSodium", condition: .when(platforms: [.linux])),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ]
        ),
        // The server's behaviour (connections, channels, presence, client events, webhooks' pairing,
        // limits, activity timeouts) as one pure engine: no I/O, no clock reads. Driven by the testing
        // library's fake server, and through it by `pusher-channels serve`.
        .target(name: "PusherServerEngine", dependencies: ["PusherCore", "PusherCrypto"]),
        // The client users import: the `PusherClient` actor, its sequences, the WebSocket transport.
        .target(
            name: "PusherChannels",
            dependencies: [
                "PusherCore",
                "PusherCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "DequeModule", package: "swift-collections"),
                // The timer schedule's heap.
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // The auth and user-auth endpoints.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // HTTP CONNECT proxies in front of the WebSocket (SOCKS5 is our own handler: NIOSOCKS
                // has no user/password authentication).
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ]
        ),
        // Test support for our tests and users' tests: a virtual clock and an in-process fake server.
        .target(
            name: "PusherChannelsTesting",
            dependencies: [
                "PusherChannels",
                "PusherServerEngine",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The fake server's TLS mode.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The fake server's webhooks.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // `inMemoryClient(…, logger:)`.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The measuring tools of `pusher-channels bench` and `Benchmarks/`: a loopback load server
        // that writes pre-encoded events, the process's resource usage, and workloads that reach
        // `package` code (the client engine, the secretbox, the trigger signer).
        .target(
            name: "PusherBenchmarkSupport",
            dependencies: [
                "PusherChannels",
                "PusherChannelsServer",
                "PusherCore",
                "PusherCrypto",
                // `SecretBoxWorkload` offers libsodium where it is linked.
                .target(name: "CSodium", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // `FrameReadingWorkload` decodes frames in an EmbeddedChannel.
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // Publishing from Swift servers: the Channels HTTP API on AsyncHTTPClient, authorizing your
        // own clients, verifying webhooks.
        .target(
            name: "PusherChannelsServer",
            dependencies: [
                "PusherCore",
                "PusherCrypto",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // The endpoint calls: `HTTPFields` in, `HTTPResponse.Status` out.
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "PusherChannelsCLI",
            dependencies: [
                "PusherChannels",
                // `serve` runs the fake server.
                "PusherChannelsTesting",
                // `bench` runs the load server and reads the process's resource usage.
                "PusherBenchmarkSupport",
                // `trigger`, `channels`, `channel`, `users` (the HTTP API) and `webhooks`.
                "PusherChannelsServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // `serve --log-level`: the fake server's logger.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PusherCoreTests", dependencies: ["PusherCore"]),
        .testTarget(name: "PusherBenchmarkSupportTests", dependencies: ["PusherBenchmarkSupport", "PusherChannels"]),
        // The Swift secretbox against the official vectors, and against libsodium on Linux.
        .testTarget(
            name: "PusherCryptoTests",
            dependencies: [
                "PusherCore",
                "PusherCrypto",
                .target(name: "CSodium", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(
            name: "PusherServerEngineTests", dependencies: ["PusherServerEngine", "PusherCore", "PusherCrypto"]),
        .testTarget(
            name: "PusherChannelsServerTests",
            dependencies: [
                "PusherChannelsServer",
                // The package's own signing and digests (HMAC-SHA256, MD5, the encrypted channels'
                // keys), which the server product does not re-export.
                "PusherCore",
                "PusherCrypto",
                "PusherChannels",
                "PusherChannelsTesting",
                "PusherTestSupport",
                // A loopback HTTP server for the error, timeout and wire tests; metrics and spans as a
                // backend sees them.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // A copy of ../shared/vectors/pusher-http-api.json, read at test time through #filePath.
            exclude: ["Vectors"]
        ),
        // Loopback helpers both client test targets use (a raw WebSocket, an HTTP server that answers
        // as told, a proxy, a port that refuses): a target of their own, with `package` access.
        .target(
            name: "PusherTestSupport",
            dependencies: [
                "PusherChannels",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PusherTestSupport"
        ),
        // The command-line client run as a child process (`listen`, `trigger`, `serve`, `doctor`,
        // `webhooks`, `bench`): the only test target that needs the executable built.
        .testTarget(
            name: "PusherChannelsCLITests",
            dependencies: [
                "PusherChannelsCLI",
                "PusherChannels",
                "PusherChannelsTesting",
                "PusherChannelsServer",
                "PusherTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PusherChannelsTests",
            dependencies: [
                "PusherChannels",
                "PusherChannelsTesting",
                "PusherTestSupport",
                // The fake server's HTTP API and webhooks checked with the server library.
                "PusherChannelsServer",
                // Signed requests to the fake server's HTTP API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Loopback servers: the auth endpoint tests' small servers, listeners that never answer
                // (SilentServer), with or without TLS.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
