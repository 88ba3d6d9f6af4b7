// Connect to a Pusher Channels server, subscribe to a public channel and print its events.
//
// Runs offline by default, against the package's in-process fake server, which triggers a few
// events. Set PUSHER_KEY and PUSHER_CLUSTER (or PUSHER_HOST, PUSHER_PORT and PUSHER_TLS=0|1) to
// listen to a real server instead; PUSHER_CHANNEL picks the channel (default "my-channel").

// snippet.hide
import PusherChannels
import PusherChannelsTesting

let channel = ExampleEnvironment.channel(default: "my-channel")
let limit = ExampleEnvironment.isOnline ? Int.max : 3
// snippet.show

struct Greeting: Decodable {
    var message: String
}

// snippet.hide
print(ExampleEnvironment.summary)
try await ExampleEnvironment.withClient { client, server in
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            var received = 0
            // snippet.show
            for try await event in client.events(on: channel) {
                print("\(event.channel) \(event.name): \(event.data)")
                if let greeting = try? event.decode(Greeting.self) {
                    print("  decoded message: \(greeting.message)")
                }
                // snippet.hide
                received += 1
                if received == limit { break }
                // snippet.show
            }
            // snippet.hide
        }
        if let server {
            // Offline: play the server's part once the client has subscribed.
            await server.waitForSubscribers(of: channel)
            for (index, text) in ["hello", "from the", "fake server"].enumerated() {
                await server.trigger(channel: channel, event: "greeting", data: #"{"message":"\#(text)","n":\#(index + 1)}"#)
            }
        }
        try await group.waitForAll()
    }
}
