// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Presence roster")
struct PresenceRosterTests {
    static let subscription = try! JSONValue(  // a valid literal
        parsing: #"{"presence":{"ids":["1",2],"hash":{"1":{"name":"Ann"},"2":null},"count":2}}"#
    )

    @Test("a subscription builds the members from hash and ids, me from channel_data; numeric ids become strings")
    func snapshot() throws {
        var roster = PresenceRoster()
        let (change, overflow) = try roster.reset(subscriptionData: Self.subscription, channelData: #"{"user_id":2}"#)
        #expect(overflow == nil)
        let expected = PresenceSnapshot(
            members: [
                PresenceMember(userID: "1", userInfo: .object(["name": .string("Ann")])), PresenceMember(userID: "2"),
            ],
            me: PresenceMember(userID: "2")
        )
        #expect(change == .snapshot(expected))
        #expect(roster.snapshot.count == 2)
        #expect(roster.snapshot.member(withID: "1")?.userInfo?["name"] == .string("Ann"))
    }

    @Test("adding an existing id updates it without double counting; removing an unknown id is ignored")
    func idempotent() throws {
        var roster = PresenceRoster()
        _ = try roster.reset(subscriptionData: Self.subscription, channelData: nil)
        #expect(
            try roster.memberAdded(try JSONValue(parsing: #"{"user_id":"1","user_info":{"name":"Anne"}}"#))
                == .added(PresenceMember(userID: "1", userInfo: .object(["name": .string("Anne")]))))
        #expect(roster.snapshot.count == 2)
        #expect(try roster.memberRemoved(try JSONValue(parsing: #"{"user_id":"99"}"#)) == nil)
        #expect(
            try roster.memberRemoved(try JSONValue(parsing: #"{"user_id":2}"#)) == .removed(PresenceMember(userID: "2"))
        )
        #expect(roster.snapshot.members.map(\.userID) == ["1"])
    }

    @Test("every subscription rebuilds the roster from scratch (no duplicates after a reconnect)")
    func rebuild() throws {
        var roster = PresenceRoster()
        _ = try roster.reset(subscriptionData: Self.subscription, channelData: nil)
        _ = try roster.memberAdded(try JSONValue(parsing: #"{"user_id":"3"}"#))
        _ = try roster.reset(subscriptionData: Self.subscription, channelData: nil)
        #expect(roster.snapshot.members.map(\.userID) == ["1", "2"])
    }

    @Test("malformed presence payloads are typed errors")
    func malformed() {
        var roster = PresenceRoster()
        #expect(throws: PusherError.self) { try roster.reset(subscriptionData: .object([:]), channelData: nil) }
        #expect(throws: PusherError.self) { try roster.memberAdded(.object([:])) }
        #expect(throws: PusherError.self) { try roster.memberRemoved(.string("x")) }
    }

    @Test(
        "the roster is capped: a subscription over the cap keeps the lowest ids and says so; a new member beyond it is refused"
    )
    func cap() throws {
        var roster = PresenceRoster(maximumMembers: 1)
        let (change, overflow) = try roster.reset(subscriptionData: Self.subscription, channelData: nil)
        #expect(overflow?.code == .limitExceeded)
        guard case .snapshot(let snapshot) = change else { return }
        #expect(snapshot.members.map(\.userID) == ["1"])
        #expect {
            try roster.memberAdded(try JSONValue(parsing: #"{"user_id":"3"}"#))
        } throws: { error in
            (error as? PusherError)?.code == .limitExceeded
        }
        // An update of a member already present is no growth.
        #expect(
            try roster.memberAdded(try JSONValue(parsing: #"{"user_id":"1","user_info":{"x":1}}"#))
                == .added(PresenceMember(userID: "1", userInfo: .object(["x": .number("1")]))))
        #expect(roster.count == 1)
    }

    @Test("the roster is bounded by bytes too: large user_info is refused beyond maximumBytes, removals free room")
    func byteCap() throws {
        var roster = PresenceRoster(maximumMembers: 100, maximumBytes: 3_000)
        let big = String(repeating: "x", count: 1_000)
        let hash = (1...5).map { #""\#($0)":{"bio":"\#(big)"}"# }.joined(separator: ",")
        let subscription = try JSONValue(
            parsing: #"{"presence":{"ids":["1","2","3","4","5"],"hash":{"# + hash + "}}}")
        let (change, overflow) = try roster.reset(subscriptionData: subscription, channelData: nil)
        #expect(overflow?.code == .limitExceeded)
        guard case .snapshot(let snapshot) = change else { return }
        #expect(snapshot.members.map(\.userID) == ["1", "2"])
        #expect(roster.byteCount <= 3_000)
        let member = #"{"user_id":"9","user_info":{"bio":"\#(big)"}}"#
        #expect {
            try roster.memberAdded(try JSONValue(parsing: member))
        } throws: { error in
            (error as? PusherError)?.code == .limitExceeded
        }
        _ = try roster.memberRemoved(try JSONValue(parsing: #"{"user_id":"1"}"#))
        _ = try roster.memberAdded(try JSONValue(parsing: member))
        #expect(roster.count == 2)
    }
}
