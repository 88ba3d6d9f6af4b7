// Unsubscribe by cancelling the task that iterates a channel, or by leaving its loop.
//
// A channel stays subscribed while at least one consumer iterates it; when the last one goes away,
// the client sends pusher:unsubscribe. Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or
// PUSHER_HOST (with PUSHER_PORT, PUSHER_TLS=0|1, PUSHER_PATH), and PUSHER_CHANNEL: after two events
// on the channel it unsubscribes and exits. Without PUSHER_KEY it runs offline: the fake server
// sends the two events and shows the pusher:unsubscribe it received.

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

// snippet.unsubscribe
/// Follows `channel` with two consumers: one in a child task that would run for ever, and a loop
/// that leaves after two events. Cancelling the child task then ends the last consumer.
func followThenUnsubscribe(_ client: PusherClient, channel: String) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        // Making an iterator registers its consumer: this one hears everything sent from now on.
        var events = client.events(on: channel).prefix(2).makeAsyncIterator()
        let (registered, done) = AsyncStream.makeStream(of: Never.self)
        group.addTask {
            var others = client.events(on: channel).makeAsyncIterator()
            done.finish()  // the other consumer is registered
            while try await others.next() != nil {}
            print("the other consumer finished: its task was cancelled")
        }
        for await _ in registered {}
        // Leaving a loop unregisters its consumer; the channel stays subscribed for the other one.
        while let event = try await events.next() {
            print("got \(event.name): \(event.data)")
        }
        // Cancelling the task ends the channel's last consumer: the client sends pusher:unsubscribe.
        group.cancelAll()
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "ticker"

if let key = environment["PUSHER_KEY"] {
    try await withPusherClient(key: key, configuration: connectionConfiguration(from: environment)) { client in
        try await followThenUnsubscribe(client, channel: channel)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning { server in
        try await withPusherClient(key: server.appKey, configuration: server.clientConfiguration()) { client in
            async let following: Void = followThenUnsubscribe(client, channel: channel)
            await server.waitForSubscribers(of: channel)
            await server.trigger(channel: channel, event: "tick", data: "1")
            await server.trigger(channel: channel, event: "tick", data: "2")
            try await following
            let unsubscribes = await server.waitForMessages(named: "pusher:unsubscribe")
            print("the server received: \(unsubscribes.map(\.text))")
            print("channels still subscribed: \(await client.channels)")
        }
    }
}
