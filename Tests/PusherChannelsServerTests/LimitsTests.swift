// SPDX-License-Identifier: MIT

import PusherChannelsServer
import Testing

/// Arguments and limits are checked before anything is sent: the recording transport sees no request.
@Suite("Limits and arguments before any request")
struct LimitsTests {
    /// Runs `call` on a recording server and returns its error; records an issue when something was sent.
    static func refusal(
        limits: PusherServerConfiguration.Limits = .pusher,
        masterKey: Bool = true,
        _ call: (PusherServer) async throws(PusherServerError) -> Void
    ) async throws -> PusherServerError? {
        let transport = RecordingTransport()
        let server = try TestApp.server(limits: limits, masterKey: masterKey, transport: transport)
        var refused: PusherServerError?
        do {
            try await call(server)
        } catch {
            refused = error
        }
        #expect(await transport.requests.isEmpty, "a refused call sent a request")
        return refused
    }

    static func channels(_ count: Int) -> [String] { (0..<count).map { "channel-\($0)" } }

    @Test("101 channels in a trigger exceed Pusher's limit; 100 are sent")
    func channelsPerTrigger() async throws {
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channels: Self.channels(101), event: "e", data: "{}")
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("101") == true)
        let transport = RecordingTransport()
        try await TestApp.server(transport: transport).trigger(channels: Self.channels(100), event: "e", data: "{}")
        #expect(await transport.requests.count == 1)
    }

    @Test("a trigger needs a channel, a batch an event")
    func emptyCalls() async throws {
        let noChannel = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channels: [], event: "e", data: "{}")
        }
        #expect(noChannel?.code == .invalidArgument)
        let noEvent = try await Self.refusal { server throws(PusherServerError) in
            try await server.triggerBatch([])
        }
        #expect(noEvent?.code == .invalidArgument)
    }

    @Test("11 events in a batch exceed Pusher's limit")
    func eventsPerBatch() async throws {
        let events = (0..<11).map { BatchEvent(channel: "c", event: "e\($0)", data: "{}") }
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.triggerBatch(events)
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test("data is measured in UTF-8 bytes: 5,120 'ü' (10,240 bytes) pass, 5,121 do not")
    func dataBytes() async throws {
        let transport = RecordingTransport()
        try await TestApp.server(transport: transport)
            .trigger(channel: "c", event: "e", data: String(repeating: "ü", count: 5_120))
        #expect(await transport.requests.count == 1)
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "e", data: String(repeating: "ü", count: 5_121))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("10242") == true)
        let batchError = try await Self.refusal { server throws(PusherServerError) in
            try await server.triggerBatch([
                BatchEvent(channel: "c", event: "e", data: "{}"),
                BatchEvent(channel: "c", event: "e", data: String(repeating: "x", count: 10_241)),
            ])
        }
        #expect(batchError?.code == .limitExceeded)
        #expect(batchError?.message.hasPrefix("batch event 1:") == true)
    }

    @Test("the size limit applies to the encrypted data as sent, not to the plaintext")
    func encryptedDataBytes() async throws {
        // 7,700 bytes of plaintext become 10,288 bytes of base64 ciphertext plus the JSON around it.
        let plaintext = String(repeating: "x", count: 7_700)
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "private-encrypted-c", event: "e", data: plaintext)
        }
        #expect(error?.code == .limitExceeded)
        let transport = RecordingTransport()
        try await TestApp.server(transport: transport).trigger(channel: "public-c", event: "e", data: plaintext)
        #expect(await transport.requests.count == 1)
    }

    @Test("an encrypted channel must be alone in its trigger and needs a master key")
    func encryptedChannelRules() async throws {
        let mixed = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channels: ["a", "private-encrypted-b"], event: "e", data: "{}")
        }
        #expect(mixed?.code == .invalidArgument)
        let noKey = try await Self.refusal(masterKey: false) { server throws(PusherServerError) in
            try await server.trigger(channel: "private-encrypted-b", event: "e", data: "{}")
        }
        #expect(noKey?.code == .invalidConfiguration)
        let noKeyBatch = try await Self.refusal(masterKey: false) { server throws(PusherServerError) in
            try await server.triggerBatch([BatchEvent(channel: "private-encrypted-b", event: "e", data: "{}")])
        }
        #expect(noKeyBatch?.code == .invalidConfiguration)
    }

    @Test(
        "socket ids are digits.digits",
        arguments: ["1234", "a.b", "1.2.3", ".1", "1.", "", "1 .2", "١.٢"])
    func socketIDs(socketID: String) async throws {
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "e", data: "{}", socketID: socketID)
        }
        #expect(error?.code == .invalidArgument)
        let batchError = try await Self.refusal { server throws(PusherServerError) in
            try await server.triggerBatch([BatchEvent(channel: "c", event: "e", data: "{}", socketID: socketID)])
        }
        #expect(batchError?.code == .invalidArgument)
    }

    @Test(
        "channel names: characters, '#' only for server-to-user, empty",
        arguments: ["my channel", "#foo", "#server-to-user-", "ümlaut", "a/b", "a?b", "", "a\nb", "a%20"])
    func channelNames(name: String) async throws {
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: name, event: "e", data: "{}")
        }
        #expect(error?.code == .invalidArgument)
        let query = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.channel(name)
        }
        #expect(query?.code == .invalidArgument)
    }

    @Test("every allowed character passes, and server-to-user names in triggers")
    func allowedNames() async throws {
        let transport = RecordingTransport()
        let server = try TestApp.server(transport: transport)
        try await server.trigger(
            channels: ["AZaz09_-=@,.;", "#server-to-user-alice"], event: "e", data: "{}")
        await transport.answer(.init(status: 200, body: #"{"occupied":false}"#))
        _ = try await server.channel("AZaz09_-=@,.;")
        #expect(await transport.requests.count == 2)
        let serverToUser = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.channel("#server-to-user-alice")
        }
        #expect(serverToUser?.code == .invalidArgument)
    }

    @Test("channel names of 164 bytes pass and 165 exceed the limit; event names 200 and 201 bytes")
    func nameLengths() async throws {
        let transport = RecordingTransport()
        let server = try TestApp.server(transport: transport)
        // 100 two-byte characters are 200 bytes: the limit counts bytes, as servers do.
        try await server.trigger(
            channel: String(repeating: "c", count: 164), event: String(repeating: "é", count: 100), data: "{}")
        try await server.sendToUser(String(repeating: "u", count: 164 - 16), event: "e", data: "{}")
        #expect(await transport.requests.count == 2)
        let channel = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: String(repeating: "c", count: 165), event: "e", data: "{}")
        }
        #expect(channel?.code == .limitExceeded)
        let serverToUser = try await Self.refusal { server throws(PusherServerError) in
            try await server.sendToUser(String(repeating: "u", count: 165 - 16), event: "e", data: "{}")
        }
        #expect(serverToUser?.code == .limitExceeded)
        let query = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.channel(String(repeating: "c", count: 165))
        }
        #expect(query?.code == .limitExceeded)
        let event = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: String(repeating: "é", count: 100) + "e", data: "{}")
        }
        #expect(event?.code == .limitExceeded)
        let batchEvent = try await Self.refusal { server throws(PusherServerError) in
            try await server.triggerBatch([
                BatchEvent(channel: "c", event: String(repeating: "e", count: 201), data: "{}")
            ])
        }
        #expect(batchEvent?.code == .limitExceeded)
        let empty = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "", data: "{}")
        }
        #expect(empty?.code == .invalidArgument)
    }

    @Test("socket ids of 64 bytes pass, 65 are refused; 1.2 is the shortest")
    func socketIDLengths() async throws {
        let transport = RecordingTransport()
        let server = try TestApp.server(transport: transport)
        let longest = String(repeating: "1", count: 32) + "." + String(repeating: "2", count: 31)
        #expect(longest.utf8.count == 64)
        try await server.trigger(channel: "c", event: "e", data: "{}", socketID: longest)
        try await server.trigger(channel: "c", event: "e", data: "{}", socketID: "1.2")
        #expect(await transport.requests.count == 2)
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "e", data: "{}", socketID: longest + "3")
        }
        #expect(error?.code == .invalidArgument)
        #expect(throws: PusherServerError.self) {
            try server.authorizeChannel(socketID: longest + "3", channel: "private-c")
        }
        #expect(
            try server.authorizeChannel(socketID: longest, channel: "private-c").authorization.auth.isEmpty == false)
    }

    @Test("Limits.none lifts every numeric limit; characters are still checked")
    func noLimits() async throws {
        let transport = RecordingTransport()
        let server = try TestApp.server(limits: .none, transport: transport)
        try await server.trigger(channels: Self.channels(101), event: "e", data: String(repeating: "x", count: 20_000))
        try await server.triggerBatch((0..<11).map { BatchEvent(channel: "c", event: "e\($0)", data: "{}") })
        try await server.trigger(
            channel: String(repeating: "c", count: 300), event: String(repeating: "e", count: 300), data: "{}")
        #expect(await transport.requests.count == 3)
        let error = try await Self.refusal(limits: .none) { server throws(PusherServerError) in
            try await server.trigger(channel: "a b", event: "e", data: "{}")
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test("custom limits are the ones checked")
    func customLimits() async throws {
        var limits = PusherServerConfiguration.Limits.none
        limits.channelsPerTrigger = 2
        limits.dataBytes = 4
        let tooMany = try await Self.refusal(limits: limits) { server throws(PusherServerError) in
            try await server.trigger(channels: ["a", "b", "c"], event: "e", data: "{}")
        }
        #expect(tooMany?.code == .limitExceeded)
        let tooLarge = try await Self.refusal(limits: limits) { server throws(PusherServerError) in
            try await server.trigger(channel: "a", event: "e", data: "12345")
        }
        #expect(tooLarge?.code == .limitExceeded)
    }

    @Test("users, send-to-user and terminate check their arguments")
    func userAndQueryArguments() async throws {
        let users = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.users(inPresenceChannel: "private-room")
        }
        #expect(users?.code == .invalidArgument)
        let userCount = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.channels(prefix: "private-", info: [.userCount])
        }
        #expect(userCount?.code == .invalidArgument)
        let channelUserCount = try await Self.refusal { server throws(PusherServerError) in
            _ = try await server.channel("private-room", info: [.userCount])
        }
        #expect(channelUserCount?.code == .invalidArgument)
        for userID in ["", "a b", "a/b", "a#b"] {
            let send = try await Self.refusal { server throws(PusherServerError) in
                try await server.sendToUser(userID, event: "e", data: "{}")
            }
            #expect(send?.code == .invalidArgument)
            let terminate = try await Self.refusal { server throws(PusherServerError) in
                try await server.terminateConnections(ofUser: userID)
            }
            #expect(terminate?.code == .invalidArgument)
        }
    }

    @Test("data that cannot be encoded is refused, naming its type and not its contents")
    func unencodableData() async throws {
        let error = try await Self.refusal { server throws(PusherServerError) in
            try await server.trigger(channel: "c", event: "e", data: ["secret-value": Double.nan])
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description.contains("secret-value") == false)
    }

    @Test("a non-positive timeout is a configuration error")
    func timeoutMustBePositive() async throws {
        let transport = RecordingTransport()
        var configuration = try TestApp.configuration()
        configuration.timeout = .zero
        let server = PusherServer(configuration: configuration, transport: transport)
        await #expect(throws: PusherServerError.self) { try await server.trigger(channel: "c", event: "e", data: "{}") }
        #expect(await transport.requests.isEmpty)
    }
}
