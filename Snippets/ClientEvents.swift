// Send client events to the other members of a presence channel, and receive theirs with the
// sender's user id. Offline, two clients talk through the fake server.

// snippet.hide
import PusherChannels
import PusherChannelsTesting

print(ExampleEnvironment.summary)
let secret = "app-secret"
let channel = "presence-chat"

func client(for server: FakePusherServer, user: String) -> PusherClient {
    var options = server.clientOptions()
    options.authorizer = .signing(key: server.appKey, secret: secret) { _ in .init(userID: user) }
    return PusherClient(key: server.appKey, options: options)
}

try await FakePusherServer.withRunning(configuration: .init(appSecret: secret)) { server in
    try await withRunning(client(for: server, user: "ada")) { ada in
        try await withRunning(client(for: server, user: "grace")) { grace in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for try await _ in ada.events(on: channel) {} }  // Ada must be subscribed to send
                group.addTask {
                    // snippet.show
                    for try await event in grace.events(on: channel, named: "client-message") {
                        print("\(event.userID ?? "someone") says \(event.data)")
                        // snippet.hide
                        break
                        // snippet.show
                    }
                    // snippet.hide
                }
                await server.waitForSubscribers(of: channel, count: 2)
                await ada.waitForConsumers(on: channel, count: 1)
                // snippet.show
                try await ada.trigger("client-message", on: channel, data: #"{"text":"hello"}"#)
                // snippet.hide
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
