// SPDX-License-Identifier: MIT

import PusherCore
import Testing

@Suite("Watchlist events")
struct WatchlistEventTests {
    static func events(_ data: String) throws -> [WatchlistEvent] {
        try WatchlistEvent.events(from: try JSONValue(parsing: data))
    }

    @Test(
        "watchlist_events data makes one event per user id, in order; numeric ids become strings",
        arguments: [
            (#"{"events":[]}"#, [WatchlistEvent]()),
            (
                #"{"events":[{"name":"online","user_ids":["a","b"]}]}"#,
                [.init(userID: "a", status: .online), .init(userID: "b", status: .online)]
            ),
            (
                #"{"events":[{"name":"offline","user_ids":[7]},{"name":"online","user_ids":["c"]}],"extra":1}"#,
                [.init(userID: "7", status: .offline), .init(userID: "c", status: .online)]
            ),
            (#"{"events":[{"name":"online","user_ids":[]}]}"#, []),
        ]
    )
    func events(data: String, expected: [WatchlistEvent]) throws {
        #expect(try Self.events(data) == expected)
    }

    @Test(
        "data of another shape is a malformed message",
        arguments: [
            "{}", #"{"events":{}}"#, #"{"events":[{"user_ids":["a"]}]}"#,
            #"{"events":[{"name":"away","user_ids":["a"]}]}"#,
            #"{"events":[{"name":"online"}]}"#, #"{"events":[{"name":"online","user_ids":"a"}]}"#,
            #"{"events":[{"name":"online","user_ids":[true]}]}"#, #"{"events":[{"name":"online","user_ids":[1.5]}]}"#,
            "[]",
        ]
    )
    func malformed(data: String) {
        #expect {
            try Self.events(data)
        } throws: { error in
            (error as? PusherError)?.code == .malformedMessage
        }
    }

    @Test("an event describes itself as the user and the status")
    func description() {
        #expect(WatchlistEvent(userID: "ann", status: .online).description == "ann online")
        #expect(WatchlistEvent(userID: "7", status: .offline).description == "7 offline")
    }
}
