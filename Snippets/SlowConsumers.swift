// Slow consumers: with the default buffering nothing is lost.
//
// A consumer that falls more than its buffer's limit behind makes the client stop reading from the
// socket until it has caught up (BufferingPolicy.default, whenFull: .pauseReading): the server is
// slowed down through TCP and memory stays bounded. Set PUSHER_KEY and PUSHER_CLUSTER (default
// mt1), or PUSHER_HOST (with PUSHER_PORT, PUSHER_TLS=0|1), and PUSHER_CHANNEL: a deliberately slow
// consumer takes the channel's next 100 events. Without PUSHER_KEY it runs offline: the fake server
// sends 300 orders at once, and every one of them arrives, in order.

import Foundation
import PusherChannels
import PusherChannelsTesting  // only for the offline fallback

// snippet.slow
/// Takes `count` events of `channel` at about a thousand a second, far slower than a server sends
/// them: the client pauses reading whenever 100 wait, and nothing is lost.
func processSlowly(_ client: PusherClient, channel: String, count: Int) async throws -> [String] {
    var received: [String] = []
    var buffering = BufferingPolicy.default
    buffering.limit = 100
    for try await event in client.events(on: channel, buffering: buffering).prefix(count) {
        try await Task.sleep(for: .milliseconds(1))  // the slow part: a database write, say
        received.append(event.data)
    }
    return received
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "orders"

if let key = environment["PUSHER_KEY"] {
    var configuration = PusherClientConfiguration(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    if let host = environment["PUSHER_HOST"] {
        configuration = PusherClientConfiguration(
            host: host, port: environment["PUSHER_PORT"].flatMap { Int($0) }, useTLS: environment["PUSHER_TLS"] != "0")
    }
    try await withPusherClient(key: key, configuration: configuration) { client in
        let received = try await processSlowly(client, channel: channel, count: 100)
        print("took the next \(received.count) events of \(channel), in the order they came")
    }
} else {
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning { server in
        try await withPusherClient(key: server.appKey, configuration: server.clientConfiguration()) { client in
            async let orders = processSlowly(client, channel: channel, count: 300)
            await server.waitForSubscribers(of: channel)
            for index in 1...300 { await server.trigger(channel: channel, event: "order", data: "\(index)") }
            let received = try await orders
            let inOrder = received == (1...300).map(String.init)
            print("received \(received.count) of 300 orders\(inOrder ? ", in order" : ", OUT OF ORDER")")
            guard inOrder else { exit(1) }
        }
    }
}
