// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("User sign-in, server-to-user events, watchlist", .timeLimit(.minutes(1)))
struct UserTests {
    static let secret = "user-app-secret"
    static let server = FakePusherServer.Configuration(appSecret: secret)

    static func signing(_ userData: String) -> UserAuthenticator {
        .signing(key: server.appKey, secret: secret) { userData }
    }

    /// Reads user states until one matches.
    static func next(
        _ states: inout PusherSequence<UserState>.AsyncIterator,
        where predicate: (UserState) -> Bool
    ) async -> UserState? {
        while let state = await states.next() {
            if predicate(state) { return state }
        }
        return nil
    }

    /// Reads user states until a failure; returns its error (recording an issue if none came).
    static func failure(_ states: inout PusherSequence<UserState>.AsyncIterator) async -> PusherError? {
        let failed = await Self.next(&states) { if case .failed = $0 { true } else { false } }
        guard case .failed(let error) = failed else {
            Issue.record("expected a failed sign-in")
            return nil
        }
        return error
    }

    @Test("user sign-in signatures match the official vector; user_data helper is compact")
    func vector() async throws {
        let userData = UserAuthenticator.userData(id: "12345")
        #expect(userData == #"{"id":"12345"}"#)
        let authentication = PusherSignature.userAuthentication(
            key: "278d425bdf160c739803",
            secret: "7ad3773142a6692b25b8",
            socketID: "1234.1234",
            userData: userData
        )
        #expect(
            authentication == "278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba")
        #expect(
            UserAuthenticator.userData(id: "a\"b", info: ["name": "N"], watchlist: ["x", "y"])
                == #"{"id":"a\"b","user_info":{"name":"N"},"watchlist":["x","y"]}"#)
    }

    @Test(
        "signIn sends pusher:signin, subscribes #server-to-user-{id}, delivers user events; again after a reconnect (case 44)"
    )
    func signInAndUserEvents() async throws {
        try await withHarness(
            server: Self.server,
            options: { $0.userAuthenticator = Self.signing(#"{"id":"alice","user_info":{"name":"Alice"}}"#) }
        ) { harness in
            var states = harness.client.userStates.makeAsyncIterator()
            #expect(await states.next() == .signedOut)
            let consumer = collecting(harness.client.userEvents(), count: 2)
            try await harness.client.signIn()
            let signedIn = await Self.next(&states) { $0.user != nil }
            #expect(signedIn?.user?.id == "alice")
            #expect(signedIn?.user?.info == ["name": "Alice"])
            await harness.server.waitForSubscribers(of: "#server-to-user-alice")
            await harness.server.sendToUser("alice", event: "invoice", data: #"{"n":1}"#)

            await harness.server.close(code: 4200, reason: "reconnect")
            let again = await Self.next(&states) { $0.user != nil }
            #expect(again?.user?.id == "alice")
            // The new connection (not the closed one, which the server may still list as open for a
            // moment) has the user's channel.
            await harness.server.waitUntil { snapshot in
                snapshot.connections.count == 2
                    && snapshot.connections.last?.subscriptions.contains("#server-to-user-alice") == true
            }
            await harness.server.sendToUser("alice", event: "invoice", data: #"{"n":2}"#)
            let received = try await consumer.value
            #expect(received.map(\.data) == [#"{"n":1}"#, #"{"n":2}"#])
            #expect(received.first?.channel == "#server-to-user-alice")

            let signIns = await harness.server.snapshot.messages(named: "pusher:signin")
            #expect(signIns.count == 2)
            let socketIDs = await harness.server.snapshot.connections.map(\.socketID)
            #expect(socketIDs.count == 2)
            // Each sign-in is signed for its own socket id.
            let auths = signIns.compactMap { try? $0.message?.parsedData()["auth"]?.stringValue }
            #expect(Set(auths).count == 2)
        }
    }

    @Test("user states go signedOut → signingIn → signedIn, once each, when signIn() comes before the connection")
    func statesInOrder() async throws {
        try await withHarness(
            server: Self.server,
            options: {
                $0.connectsAutomatically = false
                $0.userAuthenticator = Self.signing(#"{"id":"carol"}"#)
            }
        ) { harness in
            var states = harness.client.userStates.makeAsyncIterator()
            try await harness.client.signIn()
            await harness.client.connect()
            var seen: [UserState] = []
            while let state = await states.next() {
                seen.append(state)
                if state.user != nil { break }
            }
            #expect(seen.count == 3)
            #expect(seen.prefix(2) == [.signedOut, .signingIn])
            #expect(seen.last?.user?.id == "carol")
        }
    }

    @Test("the user-auth endpoint gets only socket_id; its answer signs in")
    func endpoint() async throws {
        try await FakePusherServer.withRunning(configuration: Self.server) { server in
            var options = server.clientConfiguration()
            options.userAuthenticator = .endpoint(server.userAuthEndpoint, headers: ["Authorization": "Bearer u"])
            try await withRunningClient(server.inMemoryClient(configuration: options, clock: VirtualClock())) {
                client in
                var states = client.userStates.makeAsyncIterator()
                try await client.signIn()
                let signedIn = await Self.next(&states) { $0.user != nil }
                let socketID = await server.snapshot.connections.first?.socketID ?? "?"
                #expect(signedIn?.user?.id == "user-\(socketID)")
                let requests = await server.snapshot.authRequests
                #expect(requests.map(\.fields) == [["socket_id": socketID]])
                #expect(requests.first?.headers["authorization"] == "Bearer u")
            }
        }
    }

    @Test(
        "a signin_success without a string id is rejected with a typed error",
        arguments: [
            #"{"user_data":"{\"id\":5}"}"#,
            #"{"user_data":"{\"name\":\"x\"}"}"#,
            #"{"user_data":"not json"}"#,
            #"{}"#,
        ])
    func signInSuccessWithoutID(data: String) async throws {
        // The server is told to confirm with a bad user_data: the client must not trust it.
        try await withHarness(
            server: .init(answersSignIn: false),
            options: {
                $0.userAuthenticator = UserAuthenticator { _ in
                    UserAuthentication(auth: "k:s", userData: #"{"id":"bob"}"#)
                }
            }
        ) { harness in
            var states = harness.client.userStates.makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            try await harness.client.signIn()
            await harness.server.waitForMessages(named: "pusher:signin")
            let success = PusherMessage(event: "pusher:signin_success", data: data).serializedWithStringData
            await harness.server.send(raw: success)
            guard let error = await Self.failure(&states) else { return }
            #expect(error.code == .signInFailed)
            let reported = await errors.next()
            #expect(reported?.code == .signInFailed)
            #expect(await harness.client.user == nil)
            #expect(await harness.server.snapshot.messages(named: "pusher:subscribe").isEmpty)
        }
    }

    @Test("a server refusal (pusher:error \"Invalid signature\") fails the sign-in")
    func serverRefusal() async throws {
        try await withHarness(
            server: Self.server,
            options: { $0.userAuthenticator = .signing(key: Self.server.appKey, secret: "wrong") { #"{"id":"eve"}"# } }
        ) { harness in
            var states = harness.client.userStates.makeAsyncIterator()
            try await harness.client.signIn()
            guard let error = await Self.failure(&states) else { return }
            #expect(error.code == .signInFailed)
            #expect(error.message.hasPrefix("Invalid signature"))
            #expect(await harness.client.user == nil)
        }
    }

    @Test("an authenticator that throws fails the sign-in with signInFailed; signIn needs an authenticator")
    func authenticatorFailure() async throws {
        struct Refused: Error {}
        try await withHarness(options: { $0.userAuthenticator = UserAuthenticator { _ in throw Refused() } }) {
            harness in
            var states = harness.client.userStates.makeAsyncIterator()
            try await harness.client.signIn()
            guard let error = await Self.failure(&states) else { return }
            #expect(error.code == .signInFailed)
        }
        try await withHarness { harness in
            await #expect(throws: PusherError.self) { try await harness.client.signIn() }
        }
    }

    @Test("watchlist events fan out per user id: online when a watched user signs in, offline when it leaves (case 45)")
    func watchlist() async throws {
        try await FakePusherServer.withRunning(configuration: Self.server) { server in
            var watcherOptions = server.clientConfiguration()
            watcherOptions.userAuthenticator = Self.signing(UserAuthenticator.userData(id: "w", watchlist: ["a", "b"]))
            let watcher = server.inMemoryClient(configuration: watcherOptions, clock: VirtualClock())
            try await withRunningClient(watcher) { watcher in
                var events = watcher.watchlistEvents.makeAsyncIterator()
                var states = watcher.userStates.makeAsyncIterator()
                try await watcher.signIn()
                _ = await Self.next(&states) { $0.user != nil }
                for id in ["a", "b"] {
                    var options = server.clientConfiguration()
                    options.userAuthenticator = Self.signing(UserAuthenticator.userData(id: id))
                    let other = server.inMemoryClient(configuration: options, clock: VirtualClock())
                    try await withRunningClient(other) { other in
                        try await other.signIn()
                        let online = await events.next()
                        #expect(online == WatchlistEvent(userID: id, status: .online))
                    }
                    let offline = await events.next()
                    #expect(offline == WatchlistEvent(userID: id, status: .offline))
                }
            }
        }
    }

    @Test("a watchlist message with several ids gives one event per id; a malformed one is an error")
    func watchlistParsing() async throws {
        try await withHarness { harness in
            var events = harness.client.watchlistEvents.makeAsyncIterator()
            var errors = harness.client.errors.makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            _ = await states.connectedSocketID()
            await harness.server.send(
                raw:
                    #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"online\",\"user_ids\":[\"1\",2]},{\"name\":\"offline\",\"user_ids\":[\"3\"]}]}"}"#
            )
            await harness.server.send(
                raw:
                    #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"away\",\"user_ids\":[\"4\"]}]}"}"#
            )
            var received: [WatchlistEvent] = []
            for _ in 0..<3 { if let event = await events.next() { received.append(event) } }
            #expect(
                received == [
                    .init(userID: "1", status: .online), .init(userID: "2", status: .online),
                    .init(userID: "3", status: .offline),
                ])
            let error = await errors.next()
            #expect(error?.code == .malformedMessage)
        }
    }
}
