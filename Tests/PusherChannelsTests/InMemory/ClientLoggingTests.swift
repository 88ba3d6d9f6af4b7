// SPDX-License-Identifier: MIT

import Logging
import PusherChannels
import PusherChannelsTesting
import Testing

/// What a user's `Logger` shows of trouble: connection failures and reconnections at `warning` and
/// `notice`, consumers falling behind (paced under a flood), and never a secret.
@Suite("Client logging", .timeLimit(.minutes(1)))
struct ClientLoggingTests {
    static let secret = "logging-app-secret"

    static func logger(_ records: LogRecords) -> Logger {
        var logger = Logger(label: "client-logging", factory: { _ in records.handler })
        logger.logLevel = .trace
        return logger
    }

    /// The records at `level` whose message is `message`.
    static func records(_ records: LogRecords, _ level: Logger.Level, _ message: String) -> [LogRecords.Record] {
        records.all.filter { $0.level == level && $0.message == message }
    }

    @Test("a server close and a refused reconnection: notice with the attempt and delay, warning for the failure")
    func reconnections() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory { server in
            let clock = VirtualClock()
            var options = server.clientConfiguration()
            options.backoff.jitter = 0
            let client = server.inMemoryClient(configuration: options, clock: clock, logger: Self.logger(records))
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                server.refuseConnections(true)
                await server.close(code: 4100, reason: "over capacity")
                while let state = await states.next(), !state.isReconnecting(attempt: 1) {}
                await client.observationsTold()

                let closed = Self.records(records, .notice, "connection closed")
                #expect(closed.map { $0.metadata["pusher.close_code"] } == ["4100"])
                #expect(closed.first?.metadata["pusher.reason"] == "over capacity")
                let first = Self.records(records, .notice, "reconnecting")
                #expect(first.map { $0.metadata["pusher.attempt"] } == ["1"])
                #expect(first.first?.metadata["pusher.delay"] == "\(Duration.seconds(1))")
                #expect(first.first?.metadata["pusher.cause"] == "\(PusherError.Code.connectionClosed)")
                #expect(first.first?.metadata["pusher.close_code"] == "4100")

                // The refused attempt is a connection failure, followed by the second reconnection.
                await clock.waitForDeadlines([.seconds(1)])
                clock.advance(by: .seconds(1))
                while let state = await states.next(), !state.isReconnecting(attempt: 2) {}
                await client.observationsTold()
                let failures = Self.records(records, .warning, "connection failed")
                #expect(failures.count == 1)
                #expect(failures.first?.metadata["pusher.error"] == "\(PusherError.Code.transportFailed)")
                #expect(
                    Self.records(records, .notice, "reconnecting").map { $0.metadata["pusher.attempt"] } == ["1", "2"])
            }
        }
    }

    @Test("a close that ends reconnecting (4001) logs a warning with the code and the server's reason")
    func failedForGood() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory { server in
            let client = server.inMemoryClient(clock: VirtualClock(), logger: Self.logger(records))
            try await withRunningClient(client) { client in
                var states = client.connectionStates.makeAsyncIterator()
                while let state = await states.next(), !state.isConnected {}
                await server.close(code: 4001, reason: "app does not exist")
                while let state = await states.next(), !state.isFailed {}
            }
        }
        let failed = Self.records(records, .warning, "connection failed, not retrying")
        #expect(failed.map { $0.metadata["pusher.close_code"] } == ["4001"])
        #expect(failed.first?.metadata["pusher.reason"]?.contains("app does not exist") == true)
    }

    @Test("a consumer failed as too slow logs one warning naming its channel")
    func consumerTooSlow() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory { server in
            let client = server.inMemoryClient(clock: VirtualClock(), logger: Self.logger(records))
            try await withRunningClient(client) { client in
                let slow = try await client.withSubscription(
                    to: "feed", buffering: BufferingPolicy(limit: 1, whenFull: .fail)
                ) { feed in
                    for data in ["1", "2", "3"] { await server.trigger(channel: "feed", event: "e", data: data) }
                    var iterator = feed.makeAsyncIterator()
                    do {
                        while try await iterator.next() != nil {}
                        return nil as PusherError?
                    } catch let error as PusherError {
                        return error
                    }
                }
                #expect(slow?.code == .consumerTooSlow)
                // The line is told once the client's lock is released: wait until it is.
                await client.observationsTold()
            }
        }
        let warnings = Self.records(
            records, .warning, "a consumer fell too far behind and was failed (consumerTooSlow)")
        #expect(warnings.map { $0.metadata["pusher.channel"] } == ["feed"])
        #expect(Self.records(records, .notice, "connection closed").isEmpty, "a graceful close stays at debug")
        #expect(records.all.contains { $0.level == .debug && $0.message == "connection closed" })
    }

    @Test("consumers failed in a burst: one warning per 10 s of the client's clock, counting every one")
    func failedConsumersArePaced() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory { server in
            let clock = VirtualClock()
            let client = server.inMemoryClient(clock: clock, logger: Self.logger(records))
            try await withRunningClient(client) { client in
                // Frames are handled in order: once the marker arrives, the events sent before it
                // were handed over, and three of them overflow a buffer of 1 that nobody reads yet.
                var markers = client.events(on: "marker").makeAsyncIterator()
                await server.waitForSubscribers(of: "marker")
                for channel in ["a", "b", "c", "d"] {
                    if channel == "d" { clock.advance(by: .seconds(10)) }
                    var events = client.events(on: channel, buffering: BufferingPolicy(limit: 1, whenFull: .fail))
                        .makeAsyncIterator()
                    await server.waitForSubscribers(of: channel)
                    for data in ["1", "2", "3"] { await server.trigger(channel: channel, event: "e", data: data) }
                    await server.trigger(channel: "marker", event: "m", data: channel)
                    let marker = try await markers.next()
                    #expect(marker?.data == channel)
                    await #expect(throws: PusherError.self) { while try await events.next() != nil {} }
                    await client.observationsTold()
                }
            }
        }
        let lines = Self.records(records, .warning, "a consumer fell too far behind and was failed (consumerTooSlow)")
        // "a" at once; "b" and "c" within 10 s are counted in the line of "d", 10 s later.
        #expect(lines.map { $0.metadata["pusher.channel"] } == ["a", "d"])
        #expect(lines.map { $0.metadata["pusher.consumers_failed"] } == ["1", "3"])
    }

    @Test("a flood of dropped events logs one line per 10 s of the client's clock, counting every drop")
    func droppedEventsArePaced() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory { server in
            let clock = VirtualClock()
            let client = server.inMemoryClient(clock: clock, logger: Self.logger(records))
            try await withRunningClient(client) { client in
                // A consumer that never reads keeps 1 event and drops the rest; a second one reads all.
                var stalled = client.events(on: "feed", buffering: BufferingPolicy(limit: 1, whenFull: .dropNewest))
                    .makeAsyncIterator()
                var reader = client.events(on: "feed").makeAsyncIterator()
                await server.waitForSubscribers(of: "feed")
                for round in 0..<2 {
                    // One event per read: each one's drop is a hand-over of its own.
                    for index in 0..<50 {
                        await server.trigger(channel: "feed", event: "e", data: "\(round * 50 + index)")
                        _ = try await reader.next()
                    }
                    await client.observationsTold()
                    clock.advance(by: .seconds(10))
                }
                // One more drop after the pause: its line counts every drop since the last line.
                await server.trigger(channel: "feed", event: "e", data: "last")
                _ = try await reader.next()
                await client.observationsTold()
                _ = try await stalled.next()
            }
        }
        let lines = Self.records(records, .notice, "a consumer is behind: its buffering policy dropped events")
        // Event 0 is kept, the other 100 dropped: one line at the first drop of each round (the
        // clock moved 10 s in between), and all of them counted.
        #expect(lines.count == 3)
        #expect(lines.compactMap { $0.metadata["pusher.dropped"].flatMap { Int($0) } }.reduce(0, +) == 100)
        #expect(lines.allSatisfy { $0.metadata["pusher.channel"] == "feed" })
    }

    @Test("with a signing authorizer and reconnections, no record carries the secret or a signature")
    func noSecrets() async throws {
        let records = LogRecords()
        try await FakePusherServer.withInMemory(configuration: .init(appSecret: Self.secret)) { server in
            var options = server.clientConfiguration()
            options.backoff.jitter = 0
            options.authorizer = .signing(key: server.appKey, secret: Self.secret)
            let clock = VirtualClock()
            let client = server.inMemoryClient(configuration: options, clock: clock, logger: Self.logger(records))
            try await withRunningClient(client) { client in
                try await client.withSubscription(to: "private-a") { _ in
                    await server.close(code: 4100, reason: "over capacity")
                    await clock.waitForDeadlines([.seconds(1)])
                    clock.advance(by: .seconds(1))
                    _ = await server.waitForMessages(named: "pusher:subscribe", count: 2)
                }
            }
            let signatures = await server.snapshot.messages(named: "pusher:subscribe").compactMap { message in
                message.text.firstRange(of: #""auth":""#).map { range in
                    String(message.text[range.upperBound...].prefix { $0 != "\"" })
                }
            }
            #expect(signatures.count == 2)
            let rendered = records.all.map(\.rendered)
            #expect(!Self.records(records, .notice, "reconnecting").isEmpty)
            for text in rendered {
                #expect(!text.contains(Self.secret))
                for signature in signatures {
                    #expect(!text.contains(signature))
                    #expect(!text.contains(signature.split(separator: ":").last ?? ""))
                }
            }
        }
    }
}

extension ConnectionState {
    fileprivate func isReconnecting(attempt expected: Int) -> Bool {
        if case .reconnecting(let attempt, _, _) = self { return attempt == expected }
        return false
    }

    fileprivate var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}
