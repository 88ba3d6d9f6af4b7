// Subscribe to a private channel: the client asks an authorizer for every (re)subscription.
//
// An app on users' devices asks your backend (PUSHER_AUTH_ENDPOINT, ChannelAuthorizer.endpoint);
// a server that holds the app secret signs in-process (PUSHER_SECRET, ChannelAuthorizer.signing).
// Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with PUSHER_PORT,
// PUSHER_TLS=0|1, PUSHER_PATH), one of those two, and optionally PUSHER_CHANNEL; it listens until
// you press Ctrl-C. Without PUSHER_KEY it runs offline: the fake server's auth endpoint stands in
// for your backend, and the server checks the signature before it sends an event.

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

// snippet.authorizer
/// Your backend's auth endpoint, or in-process signing where the app secret is at hand.
func channelAuthorizer(key: String, from environment: [String: String]) -> ChannelAuthorizer? {
    if let endpoint = environment["PUSHER_AUTH_ENDPOINT"].flatMap({ URL(string: $0) }) {
        return .endpoint(endpoint)  // pass `headers:` with your user's credentials
    }
    if let secret = environment["PUSHER_SECRET"] {
        return .signing(key: key, secret: secret)  // never in an app on users' devices
    }
    return nil
}

// snippet.events
/// Prints the events of `channel` as they arrive; `limit` ends the loop early (offline only).
func printEvents(of client: PusherClient, on channel: String, limit: Int = .max) async throws {
    for try await event in client.events(on: channel).prefix(limit) {
        print("\(event.name): \(event.data)")
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "private-orders"

if let key = environment["PUSHER_KEY"] {
    var configuration = connectionConfiguration(from: environment)
    configuration.authorizer = channelAuthorizer(key: key, from: environment)
    try await withPusherClient(key: key, configuration: configuration) { client in
        try await printEvents(of: client, on: channel)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part, and your backend's.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
        var configuration = server.clientConfiguration()
        // The fake server's auth endpoint stands in for your backend's, through the same helper as above.
        let backend = ["PUSHER_AUTH_ENDPOINT": server.authEndpoint.absoluteString]
        configuration.authorizer = channelAuthorizer(key: server.appKey, from: backend)
        try await withPusherClient(key: server.appKey, configuration: configuration) { client in
            async let printing: Void = printEvents(of: client, on: channel, limit: 1)
            await server.waitForSubscribers(of: channel)  // only once the signature checked out
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":1}"#)
            try await printing
            let signed = await server.snapshot.authRequests.compactMap { $0.fields["channel_name"] }
            print("the auth endpoint signed: \(signed)")
        }
    }
}
