// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

// The README's examples use only the public API; the testing one connects in memory, as the README shows.
/// The README's examples, kept here so they compile (and the testing one runs) with every change.
@Suite("README examples", .timeLimit(.minutes(1)))
struct ReadmeExamplesTests {
    @Test("the testing example: reconnects after over-capacity")
    func reconnectsAfterOverCapacity() async throws {
        try await FakePusherServer.withRunning { server in
            let clock = VirtualClock()
            var options = server.clientConfiguration()
            options.backoff.jitter = 0
            let client = server.inMemoryClient(configuration: options, clock: clock)  // no socket
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                await server.close(code: 4100, reason: "over capacity")
                await clock.waitForDeadlines([.seconds(1)])  // the client waits 1 s before retrying
                clock.advance(by: .seconds(1))
                await server.waitForConnections(count: 2)
            }
        }
    }
}

struct PriceUpdate: Decodable {
    var symbol: String
    var price: Double
}

/// The README's first example; compiled, never run (it listens forever).
func readmeServerExample() async throws {
    let client = PusherClient(key: "app-key", configuration: .init(cluster: "eu"))
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await client.run() }
        group.addTask {
            for await state in client.connectionStates { print("connection:", state) }
        }
        for try await event in client.events(on: "prices", named: "new-price") {
            let update = try event.decode(PriceUpdate.self)
            print(update.symbol, update.price)
        }
    }
}

/// The README's presence example; compiled, never run.
func readmePresenceExample(client: PusherClient, appSecret: String) async throws {
    var options = PusherClientConfiguration(cluster: "eu")
    options.authorizer = .signing(key: "app-key", secret: appSecret) { channel in
        .init(userID: "42", userInfo: ["name": "Ada"])  // who this client is on presence channels
    }
    for try await change in client.presence(on: "presence-lobby") {
        switch change {
        case .snapshot(let snapshot):
            print("members:", snapshot.members.map(\.userID), "me:", snapshot.me?.userID ?? "?")
        case .added(let member): print("joined:", member.userID)
        case .removed(let member): print("left:", member.userID)
        }
    }
}

struct Order: Decodable { var id: Int }

/// The README's self-provided authorization example; compiled, never run.
func readmeProvidedAuthorizationExample(
    client: PusherClient, authorize: (String, String) async throws -> ChannelAuthorization
) async throws {
    let socketID = await client.state.socketID!  // the client is connected
    let auth = try await authorize(socketID, "private-orders")  // a ChannelAuthorization
    for try await event in client.events(on: "private-orders", authorization: .init(auth, socketID: socketID)) {
        _ = event
    }
}

/// The README's encrypted-channel example; compiled, never run.
func readmeEncryptedExample(client: PusherClient, appSecret: String, encryptionMasterKey: String) async throws {
    var options = PusherClientConfiguration(cluster: "eu")
    options.authorizer = .signing(key: "app-key", secret: appSecret, masterKey: encryptionMasterKey)  // on your server
    for try await event in client.events(on: "private-encrypted-orders") {
        let order = try event.decode(Order.self)  // data is the decrypted plaintext
        _ = order
    }
    for await failure in client.decryptionFailures() { print(failure) }  // channel, event, reason
}

/// The README's sign-in example; compiled, never run.
func readmeSignInExample(client: PusherClient, appSecret: String) async throws {
    var options = PusherClientConfiguration(cluster: "eu")
    options.userAuthenticator = .signing(key: "app-key", secret: appSecret) {  // on your server
        UserAuthenticator.userData(id: "42", info: ["name": "Ada"], watchlist: ["7", "8"])
    }
    try await client.signIn()
    for try await event in client.userEvents() { _ = event }  // what your server sends to user 42
    for await change in client.watchlistEvents { _ = change }  // "7 online", "8 offline", …
    for await state in client.userStates { _ = state }  // signingIn, signedIn(user), failed(error)
}
