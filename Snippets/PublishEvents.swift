// Publish events from your server through the Channels HTTP API: one event, a batch, and a
// channel query.
//
// With PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET and PUSHER_CLUSTER (default mt1) set, it publishes
// to your app on Pusher. Without them it runs offline: the in-process fake server answers the
// HTTP API as strictly as Pusher (key, timestamp, body_md5, signature, limits), and a PusherClient
// subscribed to the channel prints the events as they arrive.

import Foundation
import PusherChannels  // only for the offline subscriber
import PusherChannelsServer
import PusherChannelsTesting  // only for the offline fallback

// snippet.publish
struct Order: Encodable, Sendable {
    var id: Int
    var total: Double
}

/// Asks who is listening on `orders`, then triggers one event and a batch of two.
func publish(with pusher: PusherServer) async throws(PusherServerError) {
    let channel = try await pusher.channel("orders", info: [.subscriptionCount])
    let listening = channel.counts.subscriptionCount.map(String.init) ?? "?"
    print("orders: occupied \(channel.occupied), \(listening) subscriptions")

    // Any Encodable is encoded once as JSON; a String is sent as it is.
    try await pusher.trigger(channel: "orders", event: "created", data: Order(id: 42, total: 9.5))
    print("triggered orders created")

    // Up to 10 events in one request, delivered in this order.
    let result = try await pusher.triggerBatch([
        BatchEvent(channel: "orders", event: "shipped", data: #"{"id":42}"#, info: [.subscriptionCount]),
        BatchEvent(channel: "dashboard", event: "updated", data: #"{"orders":1}"#),
    ])
    print("batch of \(result.events.count) sent: \(result.responseBody)")
}

// snippet.end
let environment = ProcessInfo.processInfo.environment

if let appID = environment["PUSHER_APP_ID"], let key = environment["PUSHER_KEY"],
    let secret = environment["PUSHER_SECRET"]
{
    // The real service: PusherServer uses its shared pooled client (no redirects), which lives with the process.
    let configuration = try PusherServerConfiguration(
        appID: appID, key: key, secret: secret, cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    try await publish(with: PusherServer(configuration: configuration))
} else {
    print("No PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET: publishing to the in-process fake server.")
    let fake = FakePusherServer.Configuration(appSecret: "offline-secret")
    try await FakePusherServer.withRunning(configuration: fake) { server in
        let configuration = try PusherServerConfiguration(
            appID: server.appID, key: server.appKey, secret: "offline-secret", host: server.host,
            port: server.port, useTLS: false)
        try await withPusherClient(key: server.appKey, configuration: server.clientConfiguration()) { client in
            async let arrivals: Void = {
                for try await event in client.events(on: "orders").prefix(2) {
                    print("client received \(event.name) on \(event.channel): \(event.data)")
                }
            }()
            await server.waitForSubscribers(of: "orders")
            try await publish(with: PusherServer(configuration: configuration))
            try await arrivals
        }
    }
}
