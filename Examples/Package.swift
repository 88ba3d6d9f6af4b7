// swift-tools-version: 6.1
import PackageDescription

// A Hummingbird 2 app that uses swift-pusher-channels on the server side: the channel
// authorization, user authentication and webhook endpoints, a route that publishes, and a
// PusherClient service that listens to a channel. Its tests run it end to end against
// FakePusherServer. `swift run ChatServer` starts it (see README.md).
/// The package in the folder above. SwiftPM names a path dependency after its folder
/// (`swift-pusher-channels` in a clone under the repository's name, but a checkout may be named
/// otherwise). In your own app, depend on it by URL instead and write "swift-pusher-channels".
let pusherChannels =
    String(#filePath).split(separator: "/").dropLast(2).last.map { $0.lowercased() }
    ?? "swift-pusher-channels"

let package = Package(
    name: "swift-pusher-channels-examples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ChatServer", targets: ["ChatServer"])
    ],
    dependencies: [
        // This repository's package, from the folder above.
        .package(path: ".."),
        // No traits: the app needs neither swift-configuration nor full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The app: its routes and services, built by `buildApplication(_:)`.
        .target(
            name: "ChatApp",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PusherChannels", package: pusherChannels),
                .product(name: "PusherChannelsServer", package: pusherChannels),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `swift run ChatServer`: the app with its settings from the environment.
        .executableTarget(name: "ChatServer", dependencies: ["ChatApp"]),
        .testTarget(
            name: "ChatAppTests",
            dependencies: [
                "ChatApp",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PusherChannelsTesting", package: pusherChannels),
            ]
        ),
    ]
)
