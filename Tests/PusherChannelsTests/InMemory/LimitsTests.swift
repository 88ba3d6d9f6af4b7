// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// The client's documented limits, hit on purpose: each gives a typed error, and the client goes on.
@Suite("Limits", .timeLimit(.minutes(1)))
struct LimitsTests {
    static func succeeded(_ channel: String, data: String = "{}") -> String {
        #"{"event":"pusher_internal:subscription_succeeded","channel":"\#(channel)","data":"\#(data)"}"#
    }

    @Test(
        "a socket that takes no writes: past outboundBufferLimit it is dropped, limitExceeded is reported, and the client reconnects"
    )
    func outboxOverflow() async throws {
        // 50 subscribe messages are about 3.6 KB: under the limit, the next 50 are over it.
        try await withInMemoryClient(configuration: { $0.outboundBufferLimit = 5_000 }) { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            var states = harness.client.connectionStates.makeAsyncIterator()
            let channels = (0..<50).map { "channel-with-a-rather-long-name-\($0)" }
            let more = (0..<50).map { "another-channel-with-a-long-name-\($0)" }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await collect(harness.client.events(on: channels), count: 1) }
                let first = await harness.transport.nextConnection()
                first.stallWrites(true)
                first.establish()
                _ = await states.connectedSocketID()
                await withTaskGroup(of: Void.self) { burst in
                    burst.addTask { _ = try? await collect(harness.client.events(on: more), count: 1) }
                    let error = await errors.next()
                    #expect(error?.code == .limitExceeded)
                    #expect(error?.message.contains("outboundBufferLimit") == true)
                    burst.cancelAll()
                }
                await harness.client.waitForConsumers(on: more[0], count: 0)
                guard
                    case .reconnecting(1, let delay, let cause)? = await states.collect(until: { $0.isReconnecting })
                        .last
                else { return }
                #expect(cause.code == .limitExceeded)
                await harness.clock.waitForSleepers()
                harness.clock.advance(by: delay)
                // A server that reads again gets every subscription.
                let second = await harness.established(socketID: "2.2")
                var subscribed: Set<String> = []
                while subscribed.count < channels.count {
                    let message = await second.nextMessage(named: "pusher:subscribe")
                    if let channel = channels.first(where: { message.contains(#""\#($0)""#) }) {
                        subscribed.insert(channel)
                    }
                }
                #expect(subscribed.count == 50)
                group.cancelAll()
            }
        }
    }

    @Test("client events past clientEventQueueLimit waiting for the rate limit are rejected with a typed error")
    func clientEventQueue() async throws {
        try await withInMemoryClient(configuration: {
            $0.authorizer = .signing(key: "app-key", secret: "secret")
            $0.clientEventRateLimit = 1
            $0.clientEventQueueLimit = 5
        }) { harness in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await collect(harness.client.events(on: "private-chat"), count: 1) }
                let peer = await harness.established()
                _ = await peer.nextMessage(named: "pusher:subscribe")
                // Observed before the confirmation is sent: the peer hands it to the client at once.
                var confirmations = harness.client.subscriptionEvents(on: "private-chat").makeAsyncIterator()
                peer.send(Self.succeeded("private-chat"))
                _ = await confirmations.next()
                var rejected: PusherError?
                var accepted = 0
                for index in 0..<20 {
                    do {
                        try await harness.client.trigger("client-typing", on: "private-chat", data: "\(index)")
                        accepted += 1
                    } catch {
                        rejected = error as? PusherError
                        break
                    }
                }
                // One goes at once, five wait for the rate limit, the seventh is refused.
                #expect(accepted == 6)
                #expect(rejected?.code == .clientEventRejected)
                #expect(rejected?.message.contains("clientEventQueueLimit") == true)
                group.cancelAll()
            }
        }
    }

    @Test(
        "a presence channel with more members than maximumPresenceMembers: limitExceeded, the roster keeps the cap, changes keep flowing"
    )
    func presenceCap() async throws {
        try await withInMemoryClient(configuration: {
            $0.authorizer = .signing(
                key: "app-key", secret: "secret", presenceMember: { _ in PresenceMember(userID: "1") })
            $0.maximumPresenceMembers = 2
        }) { harness in
            var errors = harness.client.errors.makeAsyncIterator()
            async let changes = Self.collectPresence(harness.client.presence(on: "presence-room"), count: 2)
            let peer = await harness.established()
            _ = await peer.nextMessage(named: "pusher:subscribe")
            let presence =
                #"{\"presence\":{\"ids\":[\"1\",\"2\",\"3\"],\"hash\":{\"1\":null,\"2\":null,\"3\":null},\"count\":3}}"#
            peer.send(Self.succeeded("presence-room", data: presence))
            let error = await errors.next()
            #expect(error?.code == .limitExceeded)
            #expect(error?.channel == "presence-room")
            peer.send(
                #"{"event":"pusher_internal:member_added","channel":"presence-room","data":"{\"user_id\":\"4\"}"}"#,
                #"{"event":"pusher_internal:member_removed","channel":"presence-room","data":"{\"user_id\":\"2\"}"}"#
            )
            #expect(await errors.next()?.code == .limitExceeded)
            let seen = try await changes
            guard seen.count == 2, case .snapshot(let snapshot) = seen[0] else {
                Issue.record("expected a snapshot and a removal, got \(seen)")
                return
            }
            #expect(snapshot.members.map(\.userID) == ["1", "2"])
            #expect(seen[1] == .removed(PresenceMember(userID: "2")))
        }
    }

    static func collectPresence(_ sequence: ChannelSequence<PresenceChange>, count: Int) async throws
        -> [PresenceChange]
    {
        var changes: [PresenceChange] = []
        for try await change in sequence {
            changes.append(change)
            if changes.count == count { break }
        }
        return changes
    }
}
