// Send client events to the other members of a presence channel, and receive theirs with the
// sender's user id.
//
// Client events need an authorized channel (the app must allow them): set PUSHER_KEY and
// PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with PUSHER_PORT, PUSHER_TLS=0|1, PUSHER_PATH),
// and either PUSHER_AUTH_ENDPOINT (your backend's) or PUSHER_SECRET with PUSHER_USER_ID; optionally
// PUSHER_CHANNEL. It says hello, then prints what the others send until you press Ctrl-C. Without
// PUSHER_KEY it runs offline: Ada says hello to Grace through the fake server.

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
        let userID = environment["PUSHER_USER_ID"] ?? "snippet-user"
        return .signing(key: key, secret: secret) { _ in PresenceMember(userID: userID) }
    }
    return nil
}

// snippet.messages
/// Prints the messages the other members send; `limit` ends the loop early (offline only).
func printMessages(of client: PusherClient, on channel: String, limit: Int = .max) async throws {
    for try await event in client.events(on: channel, named: "client-message").prefix(limit) {
        print("\(event.userID ?? "someone") says \(event.data)")
    }
}

/// Sends a message to the other members. The channel must have a consumer: the event waits for
/// the subscription to succeed, then goes out.
func sayHello(_ client: PusherClient, on channel: String) async throws {
    try await client.trigger("client-message", on: channel, data: #"{"text":"hello"}"#)
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "presence-chat"

if let key = environment["PUSHER_KEY"] {
    var configuration = connectionConfiguration(from: environment)
    configuration.authorizer = channelAuthorizer(key: key, from: environment)
    try await withPusherClient(key: key, configuration: configuration) { client in
        // Entered once the server has confirmed the subscription: the hello goes out at once.
        try await client.withSubscription(to: channel, named: "client-message") { messages in
            try await sayHello(client, on: channel)
            for try await event in messages {
                print("\(event.userID ?? "someone") says \(event.data)")
            }
        }
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part; Ada says hello to Grace.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
        // Signs for `user` with the fake server's app secret, through the same helper as above.
        func configuration(for user: String) -> PusherClientConfiguration {
            var configuration = server.clientConfiguration()
            configuration.authorizer = channelAuthorizer(
                key: server.appKey,
                from: ["PUSHER_SECRET": "app-secret", "PUSHER_USER_ID": user]
            )
            return configuration
        }
        try await withPusherClient(key: server.appKey, configuration: configuration(for: "ada")) { ada in
            try await withPusherClient(key: server.appKey, configuration: configuration(for: "grace")) { grace in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await printMessages(of: ada, on: channel) }  // to send, Ada listens
                    group.addTask { try await printMessages(of: grace, on: channel, limit: 1) }
                    await server.waitForSubscribers(of: channel, count: 2)  // Grace must be there to hear it
                    try await sayHello(ada, on: channel)
                    try await group.next()  // Grace heard Ada
                    group.cancelAll()
                }
            }
        }
    }
}
