// SPDX-License-Identifier: MIT

@testable import PusherCore

/// Checks the engine's actions against what the fixture's consumers asked for and what the input
/// held, and follows the presence roster from the changes its consumer was told.
struct ActionChecker {
    var fixture: EngineFixture
    /// (channel, event, data) of every well-formed inbound message: what a delivery may carry.
    var inbound: Set<[String]> = []
    /// The roster as the presence consumer saw it: id → member.
    var roster: [String: PresenceMember]
    /// Key reloads asked for and not answered yet: (channel, socket id).
    var pendingReloads: [(ChannelName, String)] = []
    /// Authorizations and user authentications asked for and not answered yet.
    var pendingRequests: [ClientEngine.Action] = []

    init(_ fixture: EngineFixture) {
        self.fixture = fixture
        let members = fixture.engine.members(of: EngineFixture.presence)?.members ?? []
        self.roster = Dictionary(uniqueKeysWithValues: members.map { ($0.userID, $0) })
    }

    mutating func inspect(_ actions: [ClientEngine.Action]) {
        for action in actions { self.inspect(action) }
    }

    private mutating func inspect(_ action: ClientEngine.Action) {
        switch action {
        case .deliver(let event, let id):
            guard let consumer = self.fixture.consumers[id] else {
                fail("delivery to consumer \(id), which is not live")
            }
            self.checkDelivery(event, to: consumer)
        case .deliverPresence(let change, let id):
            guard case .presence? = self.fixture.consumers[id] else {
                fail("presence change for consumer \(id), not a live presence consumer")
            }
            self.apply(change)
        case .finishConsumer(let id, _):
            check(self.fixture.consumers.removeValue(forKey: id) != nil, "consumer \(id) finished twice or unknown")
        case .send(let generation, let text):
            check(generation == self.fixture.generation, "sent on generation \(generation)")
            check((try? PusherMessage(parsing: text)) != nil, "sent a malformed message: \(text)")
        case .reportDecryptionFailure(let failure):
            check(failure.channel == EngineFixture.encrypted, "decryption failure on \(failure.channel)")
        case .notifySubscriptionCount(_, let channel):
            check(self.isListened(channel.rawValue), "subscription count for \(channel), which nobody consumes")
        case .reloadKey(let channel, let socketID):
            check(
                channel.rawValue == EngineFixture.encrypted && socketID == self.fixture.engine.state.socketID,
                "key reload for \(channel) on \(socketID)")
            self.pendingReloads.append((channel, socketID))
        case .authorize(_, let socketID), .authenticateUser(let socketID):
            check(socketID == self.fixture.engine.state.socketID, "authorization asked for socket \(socketID)")
            self.pendingRequests.append(action)
        case .openConnection, .scheduleTimer(.reconnect, _):
            fail("a new connection without any timer firing: \(action)")
        default:
            break
        }
    }

    private func checkDelivery(_ event: ChannelEvent, to consumer: EngineFixture.Consumer) {
        switch consumer {
        case .channels(let channels, let eventName):
            check(channels.contains(event.channel), "event of \(event.channel) to a consumer of \(channels)")
            check(
                eventName == nil || eventName == event.name, "event \(event.name) to a consumer of \(eventName ?? "")")
        case .presence:
            fail("channel event to a presence consumer")
        case .all:
            check(self.isListened(event.channel), "event of \(event.channel) to the all-channel consumer")
        case .user:
            check(event.channel == "#server-to-user-me", "user event on \(event.channel)")
        }
        if event.channel == EngineFixture.encrypted, PusherEventName.isProtocolEvent(event.name) {
            // The relaying server's plaintext never reaches an encrypted channel's consumers: only
            // `pusher:cache_miss` does, without its data.
            check(
                event.name == PusherEventName.cacheMiss && event.data.isEmpty,
                "plaintext \(event.name) delivered on an encrypted channel: \(event.data)")
        } else if event.channel == EngineFixture.encrypted {
            // Nothing but the seeds' plaintexts passes the MAC under the fixed key.
            check(FuzzKey.plaintexts.contains(event.data), "encrypted event delivered undecrypted: \(event.data)")
        } else {
            check(
                self.inbound.contains([event.channel, event.name, event.data]), "delivered an event that did not arrive"
            )
        }
    }

    private mutating func apply(_ change: PresenceChange) {
        switch change {
        case .snapshot(let snapshot):
            check(
                zip(snapshot.members, snapshot.members.dropFirst()).allSatisfy { $0.userID < $1.userID },
                "snapshot not ordered by unique id")
            self.roster = Dictionary(uniqueKeysWithValues: snapshot.members.map { ($0.userID, $0) })
        case .added(let member):
            self.roster[member.userID] = member
        case .removed(let member):
            check(
                self.roster.removeValue(forKey: member.userID) == member,
                "removed \(member.userID), who was not a member")
        }
    }

    /// The engine's roster equals what the presence consumer was told.
    func checkRoster() {
        guard self.fixture.consumers.values.contains(.presence(EngineFixture.presence)) else { return }
        guard let snapshot = self.fixture.engine.members(of: EngineFixture.presence) else { return }
        check(
            zip(snapshot.members, snapshot.members.dropFirst()).allSatisfy { $0.userID < $1.userID },
            "roster not ordered by unique id")
        check(
            Dictionary(uniqueKeysWithValues: snapshot.members.map { ($0.userID, $0) }) == self.roster,
            "roster differs from the changes told")
        check(snapshot.me?.userID == "me", "the roster lost who is me")
    }

    private func isListened(_ channel: String) -> Bool {
        self.fixture.consumers.values.contains {
            switch $0 {
            case .channels(let channels, _): channels.contains(channel)
            case .presence(let name): name == channel
            case .all, .user: false
            }
        }
    }
}
