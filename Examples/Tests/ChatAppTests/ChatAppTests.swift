// SPDX-License-Identifier: MIT

import ChatApp
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PusherChannels
import PusherChannelsServer
import PusherChannelsTesting
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app end to end: on a real port, with `FakePusherServer` playing Pusher. Clients subscribe
/// through the app's auth endpoints, messages posted to the app reach them, and the fake server's
/// webhooks reach the app's webhook route.
@Suite("ChatApp against FakePusherServer", .timeLimit(.minutes(1)))
struct ChatAppTests {
    static let secret = "chat-app-secret"
    static let masterKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    /// What a test gets: the fake Pusher server, the app's URL, what the app recorded, and an
    /// HTTP client of the app.
    struct Running {
        let pusher: FakePusherServer
        let appURL: String
        let feed: ActivityFeed
        let http: any TestClientProtocol

        /// A client configuration that authorizes and signs in through the app, as `user` (nil: nobody).
        func clientConfiguration(user: String?) -> PusherClientConfiguration {
            var configuration = self.pusher.clientConfiguration()
            let headers = user.map { ["Authorization": "Bearer \($0)"] } ?? [:]
            // The URLs are valid: the app's loopback address and a fixed path.
            configuration.authorizer = .endpoint(URL(string: "\(self.appURL)/pusher/auth")!, headers: headers)
            configuration.userAuthenticator = .endpoint(
                URL(string: "\(self.appURL)/pusher/user-auth")!, headers: headers)
            return configuration
        }

        /// Posts a chat message to the app as `user`; returns the status.
        func post(_ json: String, as user: String) async throws -> HTTPResponse.Status {
            try await self.http.execute(
                uri: "/messages", method: .post,
                headers: [.authorization: "Bearer \(user)", .contentType: "application/json"],
                body: ByteBuffer(string: json)
            ).status
        }
    }

    /// Runs the app on a free port against a fake Pusher server whose webhooks go to the app.
    static func withApp(_ body: @Sendable (Running) async throws -> Void) async throws {
        let fake = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        try await FakePusherServer.withRunning(configuration: fake) { pusher in
            let configuration = try PusherServerConfiguration(
                appID: pusher.appID, key: pusher.appKey, secret: Self.secret, host: pusher.host, port: pusher.port,
                useTLS: false, encryptionMasterKey: .init(base64: Self.masterKey))
            let feed = ActivityFeed()
            let app = buildApplication(
                AppSettings(pusher: configuration, client: pusher.clientConfiguration(), port: 0), feed: feed)
            try await app.test(.live) { http in
                // HummingbirdTesting's live mode listens on a free port of `localhost`.
                let appURL = "http://localhost:\(try #require(http.port))"
                // The app's port is known only now: webhooks go there from now on, signed with the
                // fake server's own key and secret.
                try await pusher.setWebhookTarget(.init(url: "\(appURL)/pusher/webhooks"))
                try await body(Running(pusher: pusher, appURL: appURL, feed: feed, http: http))
            }
        }
    }

    @Test("a presence subscription authorized by the app; a posted message reaches the channel; webhooks reach the app")
    func presenceAndMessages() async throws {
        try await Self.withApp { app in
            let alice = PusherClient(key: app.pusher.appKey, configuration: app.clientConfiguration(user: "alice"))
            try await withRunningClient(alice) { alice in
                var members = alice.presence(on: "presence-lobby").makeAsyncIterator()
                var messages = alice.events(on: "presence-lobby", named: "message").makeAsyncIterator()
                guard case .snapshot(let snapshot)? = try await members.next() else {
                    Issue.record("expected the presence snapshot first")
                    return
                }
                #expect(snapshot.me == PresenceMember(userID: "alice", userInfo: ["name": "alice"]))

                #expect(try await app.post(#"{"channel":"presence-lobby","text":"hello"}"#, as: "bob") == .noContent)
                let message = try #require(try await messages.next())
                #expect(try message.decode(Message.self) == Message(from: "bob", text: "hello"))
            }
            // The fake server's webhooks, verified by the app: the lobby was occupied, alice joined.
            var entries = app.feed.entries.makeAsyncIterator()
            var lobby: [WebhookEvent] = []
            while lobby.count < 2, let entry = await entries.next() {
                if case .webhook(let event) = entry, event.channel == "presence-lobby" { lobby.append(event) }
            }
            #expect(lobby.map(\.kind) == [.channelOccupied, .memberAdded])
            #expect(lobby.last?.userID == "alice")
        }
    }

    // The client accepts only sealed data on such a channel: an event the app had not encrypted
    // would fail to open.
    @Test("a message to a private-encrypted channel is encrypted by the app and opened by the client")
    func encryptedMessage() async throws {
        try await Self.withApp { app in
            let alice = PusherClient(key: app.pusher.appKey, configuration: app.clientConfiguration(user: "alice"))
            try await withRunningClient(alice) { alice in
                try await alice.withSubscription(to: "private-encrypted-support", named: "message") { messages in
                    let json = #"{"channel":"private-encrypted-support","text":"my card number"}"#
                    #expect(try await app.post(json, as: "carol") == .noContent)
                    var iterator = messages.makeAsyncIterator()
                    let message = try #require(try await iterator.next())
                    #expect(try message.decode(Message.self) == Message(from: "carol", text: "my card number"))
                }
            }
        }
    }

    @Test("the user-auth endpoint signs the client in; the app's own PusherClient receives announcements")
    func signInAndAnnouncements() async throws {
        try await Self.withApp { app in
            let dana = PusherClient(key: app.pusher.appKey, configuration: app.clientConfiguration(user: "dana"))
            try await withRunningClient(dana) { dana in
                try await dana.signIn()
                await app.pusher.waitUntil { $0.openConnections.contains { $0.userID == "dana" } }
            }
            await app.pusher.waitForSubscribers(of: "announcements")
            await app.pusher.trigger(channel: "announcements", event: "maintenance", data: #"{"at":"22:00"}"#)
            var entries = app.feed.entries.makeAsyncIterator()
            while let entry = await entries.next() {
                guard case .announcement(let event) = entry else { continue }
                #expect(event.name == "maintenance")
                #expect(event.data == #"{"at":"22:00"}"#)
                break
            }
        }
    }

    @Test("refusals: no user gets 403 from the auth endpoints, a forged webhook 401, a bad channel name 400")
    func refusals() async throws {
        try await Self.withApp { app in
            let nobody = PusherClient(key: app.pusher.appKey, configuration: app.clientConfiguration(user: nil))
            try await withRunningClient(nobody) { nobody in
                let error = await #expect(throws: PusherError.self) {
                    try await nobody.withSubscription(to: "private-orders") { _ in }
                }
                #expect(error?.code == .authorizationFailed)
                #expect(error?.httpStatus == 403)
            }
            let auth = try await app.http.execute(
                uri: "/pusher/user-auth", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "socket_id=1.2"))
            #expect(auth.status == .forbidden)
            let malformed = try await app.http.execute(
                uri: "/pusher/auth", method: .post, headers: [.authorization: "Bearer erin"],
                body: ByteBuffer(string: "socket_id=x&channel_name=private-orders"))
            #expect(malformed.status == .badRequest)

            let webhook = try await app.http.execute(
                uri: "/pusher/webhooks", method: .post,
                headers: [
                    HTTPField.Name("X-Pusher-Key")!: app.pusher.appKey, HTTPField.Name("X-Pusher-Signature")!: "00",
                ],
                body: ByteBuffer(string: #"{"time_ms":1,"events":[]}"#))
            #expect(webhook.status == .unauthorized)

            #expect(try await app.post(#"{"channel":"bad channel","text":"hi"}"#, as: "erin") == .badRequest)
        }
    }
}

/// The data of the app's `message` events, as a client decodes it.
struct Message: Decodable, Equatable {
    var from: String
    var text: String
}
