// Join a presence channel and follow its members: a snapshot first, then who joins and leaves.
//
// Offline, a second client joins and leaves the fake server's channel while we watch.

// snippet.hide
import PusherChannels
import PusherChannelsTesting

print(ExampleEnvironment.summary)
let secret = "app-secret"

func options(for server: FakePusherServer, user: String) -> PusherClientOptions {
    var options = server.clientOptions()
    // snippet.show
    options.authorizer = .signing(key: server.appKey, secret: secret) { _ in
        .init(userID: user, userInfo: ["name": .string(user.capitalized)])
    }
    // snippet.hide
    return options
}

try await FakePusherServer.withRunning(configuration: .init(appSecret: secret)) { server in
    let client = PusherClient(key: server.appKey, options: options(for: server, user: "ada"))
    try await withRunning(client) { client in
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var seen = 0
                // snippet.show
                for try await change in client.presence(on: "presence-lobby") {
                    switch change {
                    case .snapshot(let snapshot):
                        print("members: \(snapshot.members.map(\.userID)), me: \(snapshot.me?.userID ?? "?")")
                    case .added(let member):
                        print("joined: \(member.userID)")
                    case .removed(let member):
                        print("left: \(member.userID)")
                    }
                    // snippet.hide
                    seen += 1
                    if seen == 3 { break }
                    // snippet.show
                }
                // snippet.hide
            }
            await server.waitForSubscribers(of: "presence-lobby")
            let grace = PusherClient(key: server.appKey, options: options(for: server, user: "grace"))
            try await withRunning(grace) { grace in
                var changes = grace.presence(on: "presence-lobby").makeAsyncIterator()
                _ = try await changes.next()  // Grace is in once she has her snapshot; then she leaves
            }
            try await group.waitForAll()
        }
    }
}
