// Unsubscribe by cancelling the task that iterates a channel, or by leaving its loop.
//
// A channel stays subscribed while at least one consumer iterates it; when the last one goes
// away, the client sends pusher:unsubscribe. Offline, the fake server shows what it received.

// snippet.hide
import PusherChannels
import PusherChannelsTesting

let channel = ExampleEnvironment.channel(default: "ticker")

print(ExampleEnvironment.summary)
try await ExampleEnvironment.withClient { client, server in
    // snippet.show
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for try await event in client.events(on: channel) {
                print("consumer got \(event.name): \(event.data)")
            }
            print("consumer finished: its task was cancelled")
        }
        // snippet.hide
        if let server {
            // Plays the server once both consumers listen (the second one is the loop below).
            group.addTask {
                await client.waitForConsumers(on: channel, count: 2)
                await server.waitForSubscribers(of: channel)
                await server.trigger(channel: channel, event: "tick", data: "1")
                await server.trigger(channel: channel, event: "tick", data: "2")
            }
        }
        // Wait for two events before cancelling.
        var seen = 0
        for try await _ in client.events(on: channel) {
            seen += 1
            if seen == 2 { break }  // leaving a loop unregisters that consumer too
        }
        // snippet.show
        // Cancelling the consumer's task ends its loop and, as it was the channel's last consumer,
        // unsubscribes.
        group.cancelAll()
    }
    // snippet.hide
    if let server {
        let unsubscribes = await server.waitForMessages(named: "pusher:unsubscribe")
        print("the server received: \(unsubscribes.map(\.text))")
    }
    print("channels still subscribed: \(await client.channels)")
}
