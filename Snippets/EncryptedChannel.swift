// Subscribe to an end-to-end encrypted channel (private-encrypted-…).
//
// The authorizer's answer carries the channel's shared secret next to `auth`; events arrive
// decrypted, with the same `data` and `decode(_:)` as any other event. When the key rotates, the
// client reloads it once and keeps the channel's order. Events it cannot open are reported on
// `decryptionFailures`, and the channel keeps flowing. Offline, the fake server seals its events
// with a master key and then rotates it. Online, set PUSHER_SECRET and PUSHER_MASTER_KEY (base64).

// snippet.hide
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PusherChannels
import PusherChannelsTesting

struct Order: Decodable { var id: Int }

let environment = ProcessInfo.processInfo.environment
let channel = ExampleEnvironment.channel(default: "private-encrypted-orders")
print(ExampleEnvironment.summary)

if let key = environment["PUSHER_KEY"], let secret = environment["PUSHER_SECRET"], let masterKey = environment["PUSHER_MASTER_KEY"] {
    // snippet.show
    var options = PusherClientOptions(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
    // On your server: derive the channel's key from the master key, no HTTP hop. In an app, use
    // `.endpoint(authURL)`: your backend's answer includes "shared_secret".
    options.authorizer = .signing(key: key, secret: secret, masterKey: masterKey)
    try await withPusherClient(key: key, options: options) { client in
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await failure in client.decryptionFailures(on: channel) { print("skipped: \(failure)") }
            }
            for try await event in client.events(on: channel) {
                print("\(event.name): \(try event.decode(Order.self).id)")
            }
        }
    }
    // snippet.hide
} else {
    let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    let configuration = FakePusherServer.Configuration(appSecret: "app-secret", encryptionMasterKey: masterKey)
    try await FakePusherServer.withRunning(configuration: configuration) { server in
        var options = server.clientOptions()
        options.authorizer = .endpoint(server.authEndpoint)  // answers with auth and shared_secret
        try await withRunning(PusherClient(key: server.appKey, options: options)) { client in
            async let orders = client.events(on: channel).prefix(2).reduce(into: [ChannelEvent]()) { $0.append($1) }
            await server.waitForSubscribers(of: channel)
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":1}"#)
            await server.rotateEncryptionMasterKey("ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=")
            await server.trigger(channel: channel, event: "order-created", data: #"{"id":2}"#)
            for event in try await orders {
                print("\(event.name): order \(try event.decode(Order.self).id)")
            }
            let requests = await server.snapshot.authRequests.count
            print("authorizations: \(requests) (the second one reloaded the rotated key)")
        }
    }
}
