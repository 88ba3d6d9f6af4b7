// SPDX-License-Identifier: MIT

import PusherChannels
import PusherChannelsTesting
import Testing

/// The fake server's WebSocket side checks client event names with the shared rule (at most 200
/// bytes). The client refuses longer names before sending, so a raw connection (the library's own
/// WebSocket transport, without the client) sends them.
@Suite("Fake server: client event names", .timeLimit(.minutes(1)))
struct FakeServerEventNameTests {
    static let secret = "event-name-secret"

    /// The next message whose event is one of `names`, reading past others.
    static func next(
        _ names: Set<String>, on arrivals: inout AsyncStream<InboundMessage>.Iterator
    ) async -> PusherMessage? {
        while let arrival = await arrivals.next() {
            if case .message(let message) = arrival, names.contains(message.event) { return message }
        }
        return nil
    }

    @Test("a 200-byte client event name is accepted; 201 bytes get pusher:error")
    func clientEventNameLength() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let url = "ws://127.0.0.1:\(server.port)/app/\(server.appKey)?protocol=7"
            let key = server.appKey
            let client = RecordingTransportHandler()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await NIOWebSocketTransport().connect(
                        to: url, configuration: TransportConfiguration(maximumMessageSize: 1 << 20), handler: client)
                }
                var arrivals = client.arrivals.makeAsyncIterator()
                let established = try #require(
                    await Self.next([PusherEventName.connectionEstablished], on: &arrivals))
                let connection = try #require(client.connection)
                let socketID = try #require(try established.parsedData()["socket_id"]?.stringValue)
                let auth = PusherSignature.channelAuthorization(
                    key: key, secret: Self.secret, socketID: socketID, channel: "private-room"
                ).auth
                connection.send(
                    #"{"event":"pusher:subscribe","data":{"channel":"private-room","auth":"\#(auth)"}}"#)
                _ = try #require(await Self.next([PusherEventName.subscriptionSucceeded], on: &arrivals))

                let longest = "client-" + String(repeating: "é", count: 96) + "x"
                #expect(longest.utf8.count == 200)
                for name in [longest, longest + "x"] {
                    connection.send(#"{"event":"\#(name)","channel":"private-room","data":"{}"}"#)
                    connection.send(#"{"event":"pusher:ping","data":{}}"#)
                    let answer = try #require(
                        await Self.next([PusherEventName.error, PusherEventName.pong], on: &arrivals))
                    #expect(answer.event == (name == longest ? PusherEventName.pong : PusherEventName.error))
                }
                connection.close()
                try await group.waitForAll()
            }
        }
    }
}
