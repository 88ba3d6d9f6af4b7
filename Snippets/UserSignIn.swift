// Sign in as a user: receive the events your server sends to that user, and watch the users on
// your watchlist come online and go offline.
//
// `signIn()` authenticates with the user authenticator, sends `pusher:signin`, and signs in again
// after every reconnection. An app on users' devices asks your backend's user-auth endpoint
// (PUSHER_USER_AUTH_ENDPOINT); a server that holds the app secret signs in-process for
// PUSHER_USER_ID, watching the comma-separated PUSHER_WATCHLIST (PUSHER_SECRET). Set PUSHER_KEY and
// PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with PUSHER_PORT, PUSHER_TLS=0|1, PUSHER_PATH); it
// listens until you press Ctrl-C. Without PUSHER_KEY it runs offline: Alice signs in, Bob (on her
// watchlist) comes online and leaves, and the fake server sends Alice an event.

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

// snippet.authenticator
/// Your backend's user-auth endpoint, or in-process signing where the app secret is at hand.
func userAuthenticator(key: String, from environment: [String: String]) -> UserAuthenticator? {
    if let endpoint = environment["PUSHER_USER_AUTH_ENDPOINT"].flatMap({ URL(string: $0) }) {
        return .endpoint(endpoint)  // pass `headers:` with your user's credentials
    }
    if let secret = environment["PUSHER_SECRET"], let userID = environment["PUSHER_USER_ID"] {
        let watchlist = (environment["PUSHER_WATCHLIST"] ?? "").split(separator: ",").map(String.init)
        return .signing(key: key, secret: secret) {
            UserAuthenticator.userData(id: userID, watchlist: watchlist)
        }
    }
    return nil
}

// snippet.user
/// Signs in, then prints the events sent to this user and the watchlist's changes; `limit` ends
/// early (offline only).
func followUser(_ client: PusherClient, limit: Int = .max) async throws {
    // Registered before signing in, so nothing the server sends to the user is missed.
    try await client.withUserEvents { userEvents in
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await change in client.watchlistEvents {
                    print("watchlist: \(change)")
                }
            }
            try await client.signIn()
            for try await event in userEvents.prefix(limit) {
                print("to me: \(event.name) \(event.data)")
            }
            group.cancelAll()
        }
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment

if let key = environment["PUSHER_KEY"] {
    var configuration = connectionConfiguration(from: environment)
    configuration.userAuthenticator = userAuthenticator(key: key, from: environment)
    try await withPusherClient(key: key, configuration: configuration) { client in
        try await followUser(client)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part, and Bob comes and goes.
    print("No PUSHER_KEY set: running offline against the in-process fake server.")
    try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
        // Signs for `user` with the fake server's app secret, through the same helper as above.
        func configuration(for user: String, watching watchlist: String = "") -> PusherClientConfiguration {
            var configuration = server.clientConfiguration()
            configuration.userAuthenticator = userAuthenticator(
                key: server.appKey,
                from: ["PUSHER_SECRET": "app-secret", "PUSHER_USER_ID": user, "PUSHER_WATCHLIST": watchlist]
            )
            return configuration
        }
        try await withPusherClient(key: server.appKey, configuration: configuration(for: "alice", watching: "bob")) {
            client in
            async let following: Void = followUser(client, limit: 1)
            await server.waitUntil { $0.openConnections.contains { $0.userID == "alice" } }
            // Bob, on Alice's watchlist, signs in and leaves; then the server sends Alice an event.
            try await withPusherClient(key: server.appKey, configuration: configuration(for: "bob")) { bob in
                try await bob.signIn()
                await server.waitUntil { $0.openConnections.contains { $0.userID == "bob" } }
            }
            await server.waitUntil { !$0.openConnections.contains { $0.userID == "bob" } }
            await server.sendToUser("alice", event: "invoice-paid", data: #"{"invoice":42}"#)
            try await following
        }
    }
}
