// Subscribe to an end-to-end encrypted channel (private-encrypted-…).
//
// The authorization carries the channel's shared secret next to `auth`; events arrive decrypted,
// with the same `data` and `decode(_:)` as any other event. When the key rotates, the client
// reloads it once and keeps the channel's order; events it cannot open are reported on
// `decryptionFailures(on:)` and the channel keeps flowing.
//
// Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with PUSHER_PORT,
// PUSHER_TLS=0|1, PUSHER_PATH), and either PUSHER_AUTH_ENDPOINT (your backend's, which answers with
// "shared_secret") or PUSHER_SECRET with PUSHER_MASTER_KEY (base64); optionally PUSHER_CHANNEL. It
// listens until you press Ctrl-C. Without PUSHER_KEY it runs offline: the fake server seals two
// events with its master key and rotates the key between them.

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
/// Your backend's auth endpoint, or in-process signing where the app secret and master key are at
/// hand (the channel's key is derived from the master key, with no HTTP round trip).
func channelAuthorizer(key: String, from environment: [String: String]) -> ChannelAuthorizer? {
    if let endpoint = environment["PUSHER_AUTH_ENDPOINT"].flatMap({ URL(string: $0) }) {
        return .endpoint(endpoint)  // pass `headers:` with your user's credentials
    }
    if let secret = environment["PUSHER_SECRET"], let masterKey = environment["PUSHER_MASTER_KEY"] {
        return .signing(key: key, secret: secret, masterKey: masterKey)
    }
    return nil
}

// snippet.orders
struct Order: Decodable {
    var id: Int
}

/// Prints the orders on `channel`, and what could not be decrypted; `limit` ends early (offline).
func printOrders(of client: PusherClient, on channel: String, limit: Int = .max) async throws {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask {
            for await failure in client.decryptionFailures(on: channel) {
                print("skipped: \(failure)")
            }
        }
        for try await event in client.events(on: channel).prefix(limit) {
            print("\(event.name): order \(try event.decode(Order.self).id)")
        }
        group.cancelAll()
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "private-encrypted-orders"

if let key = environment["PUSHER_KEY"] {
    var configuration = connectionConfiguration(from: environment)
    configuration.authorizer = channelAuthorizer(key: key, from: environment)
    try await withPusherClient(key: key, configuration: configuration) { client in
        try await printOrders(of: client, on: channel)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part, and your backend's.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    let configuration = FakePusherServer.Configuration(
        appSecret: "app-secret",
        encryptionMasterKey: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    )
    try await FakePusherServer.withRunning(configuration: configuration) { server in
        var configuration = server.clientConfiguration()
        // The fake server's auth endpoint stands in for your backend's, through the same helper as above.
        let backend = ["PUSHER_AUTH_ENDPOINT": server.authEndpoint.absoluteString]
        configuration.authorizer = channelAuthorizer(key: server.appKey, from: backend)
        try await withPusherClient(key: server.appKey, configuration: configuration) { client in
            async let printing: Void = printOrders(of: client, on: channel, limit: 2)
            await server.waitForSubscribers(of: channel)
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":1}"#)
            await server.rotateEncryptionMasterKey("ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=")
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":2}"#)
            try await printing
            let requests = await server.snapshot.authRequests.count
            print("authorizations: \(requests) (the second one reloaded the rotated key)")
        }
    }
}
