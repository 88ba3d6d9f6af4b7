// SPDX-License-Identifier: MIT

import NIOHTTP1
import PusherChannels
import PusherChannelsTesting
import Testing

/// The fake server's HTTP API checks names with the rules the client and the server side use:
/// channel names up to 164 bytes (`#server-to-user-ID` too), event names up to 200 bytes,
/// `socket_id`s up to 64 bytes.
@Suite("Fake server: the shared name rules", .timeLimit(.minutes(1)))
struct FakeServerNameRulesTests {
    static let configuration = FakePusherServer.Configuration(appSecret: "api-secret", appID: "4321")
    static let longestSocketID = String(repeating: "1", count: 32) + "." + String(repeating: "2", count: 31)

    @Test("164-byte channel names and 200-byte event names are accepted; one byte more is 400")
    func nameLengths() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server throws in
            let api = SignedAPIClient(server)
            let channel = String(repeating: "c", count: 164)
            let event = String(repeating: "é", count: 100)
            #expect(try await api.trigger([channel], event: event, data: "{}").status == 200)
            #expect(try await api.trigger([channel + "c"], event: "e", data: "{}").status == 400)
            #expect(try await api.trigger(["c"], event: event + "e", data: "{}").status == 400)
            let batch: JSONValue = ["batch": [["channel": .string(channel + "c"), "name": "e", "data": "{}"]]]
            #expect(try await api.send(.POST, "batch_events", body: batch.jsonText).status == 400)
        }
    }

    @Test("server-to-user channels: a user id of channel-name characters, 164 bytes in all")
    func serverToUser() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server throws in
            let api = SignedAPIClient(server)
            let longest = "#server-to-user-" + String(repeating: "u", count: 148)
            #expect(try await api.trigger([longest], data: "{}").status == 200)
            #expect(try await api.trigger([longest + "u"], data: "{}").status == 400)
            #expect(try await api.trigger(["#server-to-user-a b"], data: "{}").status == 400)
            #expect(try await api.trigger(["#server-to-user-"], data: "{}").status == 400)
        }
    }

    @Test("socket ids: 64 bytes and 1.2 are accepted; 65 bytes, 1., a.1 and 1.2.3 are 400")
    func socketIDs() async throws {
        try await FakePusherServer.withRunning(configuration: Self.configuration) { server throws in
            let api = SignedAPIClient(server)
            for accepted in [Self.longestSocketID, "1.2"] {
                #expect(try await api.trigger(["c"], data: "{}", socketID: accepted).status == 200, "\(accepted)")
            }
            for refused in [Self.longestSocketID + "3", "1.", "a.1", "1.2.3"] {
                #expect(try await api.trigger(["c"], data: "{}", socketID: refused).status == 400, "\(refused)")
            }
        }
    }
}
