// Connect to Pusher Channels, subscribe to a public channel and print its events.
//
// Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or PUSHER_KEY and PUSHER_HOST (with PUSHER_PORT,
// PUSHER_TLS=0|1, PUSHER_PATH) for a self-hosted server; PUSHER_CHANNEL picks the channel. It then
// listens until you press Ctrl-C. Without PUSHER_KEY it runs offline against the package's
// in-process fake server, which sends three events: to use it in your app, delete that branch.

import Foundation
import PusherChannels
import PusherChannelsTesting  // only for the offline fallback

// snippet.configuration
/// Where to connect: Pusher's cluster `PUSHER_CLUSTER`, or a self-hosted server at `PUSHER_HOST`.
func connectionConfiguration(from environment: [String: String]) -> PusherClientConfiguration {
    guard let host = environment["PUSHER_HOST"] else {
        return PusherClientConfiguration(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    }
    return PusherClientConfiguration(
        host: host,
        port: environment["PUSHER_PORT"].flatMap { Int($0) },
        useTLS: environment["PUSHER_TLS"] != "0",
        path: environment["PUSHER_PATH"] ?? ""
    )
}

// snippet.events
struct Greeting: Decodable {
    var message: String
}

/// Prints the events of `channel` as they arrive; `limit` ends the loop early (offline only).
func printEvents(of client: PusherClient, on channel: String, limit: Int = .max) async throws {
    // Iterating subscribes; leaving the loop unsubscribes.
    for try await event in client.events(on: channel).prefix(limit) {
        print("\(event.channel) \(event.name): \(event.data)")
        if let greeting = try? event.decode(Greeting.self) {
            print("  decoded message: \(greeting.message)")
        }
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "my-channel"

if let key = environment["PUSHER_KEY"] {
    // Runs the client for the duration of the closure, then closes the connection cleanly.
    try await withPusherClient(key: key, configuration: connectionConfiguration(from: environment)) { client in
        try await printEvents(of: client, on: channel)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning { server in
        try await withPusherClient(key: server.appKey, configuration: server.clientConfiguration()) { client in
            async let printing: Void = printEvents(of: client, on: channel, limit: 3)
            await server.waitForSubscribers(of: channel)
            for (number, text) in ["hello", "from the", "fake server"].enumerated() {
                await server.trigger(
                    channel: channel,
                    event: "greeting",
                    data: #"{"message":"\#(text)","n":\#(number + 1)}"#
                )
            }
            try await printing
        }
    }
}
