// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

@Suite("Presence channels", .timeLimit(.minutes(1)))
struct PresenceTests {
    static let secret = "presence-secret"

    static func options(for server: FakePusherServer, user: String, name: String) -> PusherClientConfiguration {
        var options = server.clientConfiguration()
        options.backoff.jitter = 0
        options.authorizer = .signing(key: server.appKey, secret: Self.secret) { _ in
            PresenceMember(userID: user, userInfo: .object(["name": .string(name)]))
        }
        return options
    }

    @Test("snapshot first with me; others joining and leaving; a reconnect rebuilds the roster without duplicates")
    func membership() async throws {
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: Self.secret)) { server in
            let alice = server.inMemoryClient(
                configuration: Self.options(for: server, user: "alice", name: "Alice"),
                clock: VirtualClock())
            try await withRunningClient(alice) { alice in
                var changes = alice.presence(on: "presence-room").makeAsyncIterator()
                let first = try await changes.next()
                guard case .snapshot(let snapshot)? = first else {
                    Issue.record("expected a snapshot first, got \(String(describing: first))")
                    return
                }
                #expect(snapshot.me?.userID == "alice")
                #expect(snapshot.me?.userInfo?["name"] == .string("Alice"))
                #expect(snapshot.members.map(\.userID) == ["alice"])

                let bob = server.inMemoryClient(
                    configuration: Self.options(for: server, user: "bob", name: "Bob"),
                    clock: VirtualClock())
                try await withRunningClient(bob) { bob in
                    // Bob keeps iterating until he leaves, so Alice's roster holds him meanwhile.
                    var bobChanges = bob.presence(on: "presence-room").makeAsyncIterator()
                    let bobView = try await bobChanges.next()
                    let added = try await changes.next()
                    #expect(added == .added(PresenceMember(userID: "bob", userInfo: .object(["name": .string("Bob")]))))
                    #expect(await alice.members(of: "presence-room")?.count == 2)
                    guard case .snapshot(let bobSnapshot)? = bobView else {
                        Issue.record("bob got no snapshot")
                        return
                    }
                    #expect(bobSnapshot.members.map(\.userID) == ["alice", "bob"])
                    #expect(bobSnapshot.me?.userID == "bob")
                }
                let removed = try await changes.next()
                #expect(removed == .removed(PresenceMember(userID: "bob", userInfo: .object(["name": .string("Bob")]))))

                await server.close(code: 4200, reason: "reconnect")
                let rebuilt = try await changes.next()
                guard case .snapshot(let again)? = rebuilt else {
                    Issue.record("expected a fresh snapshot after reconnecting, got \(String(describing: rebuilt))")
                    return
                }
                #expect(again.members.map(\.userID) == ["alice"])
                #expect(await alice.members(of: "presence-room")?.count == 1)
            }
        }
    }

    @Test("presence(on:) refuses channels that are not presence channels")
    func notPresence() async throws {
        try await withHarness { harness in
            await #expect {
                for try await _ in harness.client.presence(on: "prices") {}
            } throws: { error in
                (error as? PusherError)?.code == .invalidChannelName
            }
        }
    }
}

@Suite("Presence channel_data", .timeLimit(.minutes(1)))
struct PresenceChannelDataTests {
    @Test("channel_data from the authorizer is sent byte for byte; its numeric user_id names me")
    func channelDataVerbatim() async throws {
        let secret = PresenceTests.secret
        let channelData = #"{"user_id": 7 ,  "user_info":{"b":1,"a":"ü"}}"#
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: secret)) { server in
            var options = server.clientConfiguration()
            let key = server.appKey
            options.authorizer = ChannelAuthorizer { socketID, channel in
                PusherSignature.channelAuthorization(
                    key: key, secret: secret, socketID: socketID, channel: channel, channelData: channelData)
            }
            let client = server.inMemoryClient(configuration: options, clock: VirtualClock())
            try await withRunningClient(client) { client in
                var changes = client.presence(on: "presence-raw").makeAsyncIterator()
                let first = try await changes.next()
                guard case .snapshot(let snapshot)? = first else {
                    Issue.record("expected a snapshot, got \(String(describing: first))")
                    return
                }
                #expect(snapshot.me?.userID == "7")
                let subscribe = try #require(await server.snapshot.messages(named: "pusher:subscribe").first?.message)
                #expect(try subscribe.parsedData()["channel_data"]?.stringValue == channelData)
            }
        }
    }
}
