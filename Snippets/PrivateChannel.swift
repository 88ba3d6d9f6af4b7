// Subscribe to a private channel with an authorizer.
//
// On a server that holds the app secret, sign in-process; in an app on users' devices, call your
// backend's auth endpoint instead (ChannelAuthorizer.endpoint). Offline, the fake server checks the
// signature and then sends an event. Online, set PUSHER_SECRET too (the app secret).

// snippet.hide
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PusherChannels
import PusherChannelsTesting

let environment = ProcessInfo.processInfo.environment
let channel = ExampleEnvironment.channel(default: "private-orders")
print(ExampleEnvironment.summary)

if let key = environment["PUSHER_KEY"], let secret = environment["PUSHER_SECRET"] {
    // snippet.show
    var options = PusherClientOptions(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    options.authorizer = .signing(key: key, secret: secret)
    try await withPusherClient(key: key, options: options) { client in
        for try await event in client.events(on: channel) {
            print("\(event.name): \(event.data)")
        }
    }
    // snippet.hide
} else {
    try await FakePusherServer.withRunning(configuration: .init(appSecret: "app-secret")) { server in
        var options = server.clientOptions()
        options.authorizer = .signing(key: server.appKey, secret: "app-secret")
        let client = PusherClient(key: server.appKey, options: options)
        try await withRunning(client) { client in
            async let first = client.events(on: channel).first { _ in true }
            await server.waitForSubscribers(of: channel)
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":1}"#)
            if let event = try await first { print("\(event.name): \(event.data) (the server verified our signature)") }
        }
    }
}
