// SPDX-License-Identifier: MIT

import PusherBenchmarkSupport
import PusherChannels
import Testing

// Loopback: the load server is a socket server; its frames on the wire are the subject.
@Suite("Load server", .timeLimit(.minutes(1)))
struct LoadServerTests {
    /// Reads `count` events from `sequence`.
    static func collect(_ sequence: ChannelSequence<ChannelEvent>, count: Int) async throws -> [ChannelEvent] {
        var events: [ChannelEvent] = []
        for try await event in sequence {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    /// Subscribes `client` to every channel of `server`, has the server send `count` events, and
    /// returns what each channel received.
    func receive(_ count: Int, from server: PusherLoadServer, client: PusherClient, perChannel: [Int]) async throws
        -> [String: [ChannelEvent]]
    {
        try await withThrowingTaskGroup(of: (String, [ChannelEvent]).self) { group in
            for (channel, expected) in zip(server.configuration.channels, perChannel) {
                group.addTask { (channel, try await Self.collect(client.events(on: channel), count: expected)) }
            }
            await server.waitUntilSubscribed()
            #expect(await server.send(events: count) == 1)
            var received: [String: [ChannelEvent]] = [:]
            for try await (channel, events) in group { received[channel] = events }
            return received
        }
    }

    @Test(
        "events go round-robin over the channels, each with the configured payload, continuing where the last ones stopped"
    )
    func roundRobin() async throws {
        let configuration = PusherLoadServer.Configuration(channelCount: 3, payloadBytes: 40)
        #expect(configuration.channels == ["load-0", "load-1", "load-2"])
        try await PusherLoadServer.withRunning(configuration: configuration) { server in
            try await withRunningClient(PusherClient(key: "any", configuration: server.clientConfiguration())) {
                client in
                let received = try await self.receive(7, from: server, client: client, perChannel: [3, 2, 2])
                #expect(received.mapValues(\.count) == ["load-0": 3, "load-1": 2, "load-2": 2])
                let data = #"{"payload":""# + String(repeating: "x", count: 26) + #""}"#
                #expect(data.utf8.count == 40)
                #expect(received.values.joined().allSatisfy { $0.data == data && $0.name == "load" })
            }
        }
    }

    @Test("more events than one pre-encoded block hold wrap around it, in chunks")
    func manyEvents() async throws {
        try await PusherLoadServer.withRunning(configuration: .init(channelCount: 1)) { server in
            try await withRunningClient(PusherClient(key: "any", configuration: server.clientConfiguration())) {
                client in
                let received = try await self.receive(5_000, from: server, client: client, perChannel: [5_000])
                #expect(received["load"]?.count == 5_000)
            }
        }
    }

    @Test("eventsWhenSubscribed sends that many events as soon as every channel is subscribed")
    func eventsWhenSubscribed() async throws {
        let configuration = PusherLoadServer.Configuration(channelCount: 2, eventsWhenSubscribed: 10)
        try await PusherLoadServer.withRunning(configuration: configuration) { server in
            try await withRunningClient(PusherClient(key: "any", configuration: server.clientConfiguration())) {
                client in
                async let first = Self.collect(client.events(on: "load-0"), count: 5)
                async let second = Self.collect(client.events(on: "load-1"), count: 5)
                let counts = try await (first.count, second.count)
                #expect(counts == (5, 5))
            }
        }
    }

    @Test("encrypted events are sealed with the key its client options hand out")
    func encrypted() async throws {
        let configuration = PusherLoadServer.Configuration(channelCount: 1, payloadBytes: 100, encrypted: true)
        #expect(configuration.channels == ["private-encrypted-load"])
        try await PusherLoadServer.withRunning(configuration: configuration) { server in
            try await withRunningClient(PusherClient(key: "any", configuration: server.clientConfiguration())) {
                client in
                let received = try await self.receive(3, from: server, client: client, perChannel: [3])
                let events = received["private-encrypted-load"] ?? []
                #expect(events.count == 3)
                #expect(events.allSatisfy { $0.data.utf8.count == 100 && $0.data.hasPrefix(#"{"payload":"xx"#) })
            }
        }
    }

    @Test("a configuration without channels or with a tiny payload is refused")
    func invalidConfiguration() async throws {
        for configuration in [PusherLoadServer.Configuration(channels: []), .init(channelCount: 1, payloadBytes: 10)] {
            await #expect(throws: PusherError.self) {
                try await PusherLoadServer.withRunning(configuration: configuration) { _ in }
            }
        }
    }
}
