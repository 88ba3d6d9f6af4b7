// Join a presence channel and follow its members: a snapshot first, then who joins and leaves.
//
// The authorizer says who you are: your backend's auth endpoint answers with your user
// (PUSHER_AUTH_ENDPOINT), or a server that holds the app secret signs for PUSHER_USER_ID
// (PUSHER_SECRET). Set PUSHER_KEY and PUSHER_CLUSTER (default mt1), or PUSHER_HOST (with
// PUSHER_PORT, PUSHER_TLS=0|1, PUSHER_PATH), and optionally PUSHER_CHANNEL; it follows the members
// until you press Ctrl-C. Without PUSHER_KEY it runs offline: Grace joins the fake server's channel
// and leaves while Ada watches.

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
        return .signing(key: key, secret: secret) { _ in
            PresenceMember(userID: userID, userInfo: ["name": .string(userID.capitalized)])
        }
    }
    return nil
}

// snippet.members
/// Prints the members of `channel` and their changes; `limit` ends the loop early (offline only).
func printMembers(of client: PusherClient, on channel: String, limit: Int = .max) async throws {
    for try await change in client.presence(on: channel).prefix(limit) {
        switch change {
        case .snapshot(let snapshot):
            print("members: \(snapshot.members.map(\.userID)), me: \(snapshot.me?.userID ?? "?")")
        case .added(let member):
            print("joined: \(member.userID)")
        case .removed(let member):
            print("left: \(member.userID)")
        }
    }
}

// snippet.end
let environment = ProcessInfo.processInfo.environment
let channel = environment["PUSHER_CHANNEL"] ?? "presence-lobby"

if let key = environment["PUSHER_KEY"] {
    var configuration = connectionConfiguration(from: environment)
    configuration.authorizer = channelAuthorizer(key: key, from: environment)
    try await withPusherClient(key: key, configuration: configuration) { client in
        try await printMembers(of: client, on: channel)
    }
} else {
    // Offline fallback: the in-process fake server plays the server's part, and a second user's.
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
        try await withPusherClient(key: server.appKey, configuration: configuration(for: "ada")) { client in
            async let printing: Void = printMembers(of: client, on: channel, limit: 3)
            await server.waitForSubscribers(of: channel)
            try await withPusherClient(key: server.appKey, configuration: configuration(for: "grace")) { grace in
                var changes = grace.presence(on: channel).makeAsyncIterator()
                _ = try await changes.next()  // Grace is in once she has her snapshot; then she leaves
            }
            try await printing
        }
    }
}
