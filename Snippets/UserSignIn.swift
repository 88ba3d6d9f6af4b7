// Sign in as a user: receive the events your server sends to that user, and watch other users come
// online and go offline.
//
// `signIn()` authenticates with the user authenticator (your backend's user-auth endpoint, or
// in-process signing on a server that holds the secret), sends `pusher:signin`, and signs in again
// after every reconnect. Offline, the fake server confirms the sign-in, a watched friend comes
// online and leaves, and the server sends the user an event. Online, set PUSHER_SECRET and PUSHER_USER_ID.

// snippet.hide
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PusherChannels
import PusherChannelsTesting

let environment = ProcessInfo.processInfo.environment
print(ExampleEnvironment.summary)

if let key = environment["PUSHER_KEY"], let secret = environment["PUSHER_SECRET"], let userID = environment["PUSHER_USER_ID"] {
    // snippet.show
    var options = PusherClientOptions(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    options.userAuthenticator = .signing(key: key, secret: secret) {
        UserAuthenticator.userData(id: userID, watchlist: ["friend-1", "friend-2"])
    }
    try await withPusherClient(key: key, options: options) { client in
        try await client.signIn()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await change in client.watchlistEvents { print("watchlist: \(change)") }
            }
            for try await event in client.userEvents() {
                print("to me: \(event.name) \(event.data)")
            }
        }
    }
    // snippet.hide
} else {
    let secret = "app-secret"
    try await FakePusherServer.withRunning(configuration: .init(appSecret: secret)) { server in
        var options = server.clientOptions()
        options.userAuthenticator = .signing(key: server.appKey, secret: secret) {
            UserAuthenticator.userData(id: "alice", watchlist: ["bob"])
        }
        try await withRunning(PusherClient(key: server.appKey, options: options)) { client in
            var watchlist = client.watchlistEvents.makeAsyncIterator()
            async let firstEvent = client.userEvents().first { _ in true }
            await client.waitForConsumers(on: PusherClient.userEventsConsumers)
            try await client.signIn()
            for await state in client.userStates {
                print("user: \(state)")
                if state.user != nil { break }
            }
            // Bob signs in elsewhere: Alice's watchlist says so.
            var bobOptions = server.clientOptions()
            bobOptions.userAuthenticator = .signing(key: server.appKey, secret: secret) { UserAuthenticator.userData(id: "bob") }
            try await withRunning(PusherClient(key: server.appKey, options: bobOptions)) { bob in
                try await bob.signIn()
                await server.waitUntil { $0.openConnections.contains { $0.userID == "bob" } }
            }
            // Online while Bob was connected, offline when he left.
            for _ in 0..<2 {
                if let change = await watchlist.next() { print("watchlist: \(change)") }
            }
            await server.sendToUser("alice", event: "invoice-paid", data: #"{"invoice":42}"#)
            if let event = try await firstEvent { print("to me: \(event.name) \(event.data)") }
        }
    }
}
