// Connect to a Pusher Channels server, subscribe to a public channel and print its events.
//
// Runs offline by default, against the package's in-process fake server, which triggers a few
// events. Set PUSHER_KEY and PUSHER_CLUSTER (or PUSHER_HOST, PUSHER_PORT and PUSHER_TLS=0|1) to
// listen to a real server instead; PUSHER_CHANNEL picks the channel (default "my-channel").

// snippet.hide
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PusherChannels
import PusherChannelsTesting

struct Greeting: Decodable {
    var message: String
}

let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "my-channel"

/// Prints events until `limit` have arrived (or forever with `nil`).
func printEvents(of client: PusherClient, limit: Int?) async throws {
    var received = 0
    // snippet.show
    for try await event in client.events(on: channel) {
        print("\(event.channel) \(event.name): \(event.data)")
        if let greeting = try? event.decode(Greeting.self) {
            print("  decoded message: \(greeting.message)")
        }
        // snippet.hide
        received += 1
        if let limit, received >= limit { break }
        // snippet.show
    }
    // snippet.hide
}

if let key = environment["PUSHER_KEY"] {
    var options = PusherClientOptions(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    if let host = environment["PUSHER_HOST"] {
        options = PusherClientOptions(
            host: host,
            port: environment["PUSHER_PORT"].flatMap(Int.init),
            useTLS: environment["PUSHER_TLS"] != "0"
        )
    }
    print("Listening to \(channel) on \(options.endpoint.host); press Ctrl-C to stop.")
    // snippet.show
    try await withPusherClient(key: key, options: options) { client in
        try await printEvents(of: client, limit: nil)
    }
    // snippet.hide
} else {
    print("No PUSHER_KEY set: running against the in-process fake server.")
    try await FakePusherServer.withRunning { server in
        let client = PusherClient(key: server.appKey, options: server.clientOptions())
        try await withRunning(client) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await printEvents(of: client, limit: 3) }
                await server.waitForSubscribers(of: channel)
                for (index, text) in ["hello", "from the", "fake server"].enumerated() {
                    await server.trigger(channel: channel, event: "greeting", data: #"{"message":"\#(text)","n":\#(index + 1)}"#)
                }
                try await group.waitForAll()
            }
        }
    }
}
