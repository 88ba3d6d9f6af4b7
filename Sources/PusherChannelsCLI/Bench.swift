// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherBenchmarkSupport
import PusherChannels

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how fast this client receives events: events/s, CPU per event, peak memory.",
        discussion: """
            By default it starts a built-in load server on loopback in a child process (so that this \
            process runs the client alone), connects one client through the public API, subscribes to \
            --channels channels, and consumes the --events events that the server then writes as fast as \
            the socket takes them (pre-encoded frames of --payload-bytes of data, round-robin over the \
            channels), each channel with its own `for try await` loop, with the client's default \
            buffering (a consumer that lags pauses reading from the socket: nothing is lost, memory stays \
            bounded; --buffer-limit changes the limit). It prints one name=value a line: \
            events_per_second (from the first event to the last); cpu_us_per_event (this process's user + \
            system CPU time over that span, per event); peak_rss_mib (ru_maxrss); connect_seconds; \
            subscribe_seconds (from subscribing to the first event, which the server sends only once every \
            channel is subscribed); process_cpu_seconds (from the start to the last event); \
            rss_bytes_per_channel (memory added by subscribing, with --channels > 1); \
            server_cpu_us_per_event (the load server child's CPU time, its start included, per event).

            --in-process runs the load server in this process instead: the CPU and memory figures then \
            include the server's share (small: it only hands out slices of pre-encoded frames). \
            --serve runs only the load server and prints "port=N"; it serves until standard input closes \
            (point any client at ws://127.0.0.1:N/app/any-key, on the channels `load` or `load-0`… \
            `load-K-1`; encrypted ones with the prefix private-encrypted- and the key bytes 0 to 31).

            With --host or --cluster it measures a real server's public --channel instead: something \
            else must send the --events events there.

            Examples:
              pusher-channels bench
              pusher-channels bench --encrypted
              pusher-channels bench --channels 10000 --events 200000
              pusher-channels bench --key APP_KEY --cluster eu --channel prices --events 10000
            """
    )

    @Option(help: "How many events to receive.")
    var events = 200_000

    @Option(help: "Bytes of data in each event of the built-in load server.")
    var payloadBytes = 100

    @Option(help: "Channels of the built-in load server (events go to them in turn).")
    var channels = 1

    @Flag(help: "Encrypted events (private-encrypted- channels, NaCl secretbox).")
    var encrypted = false

    @Flag(help: "Consume every channel with one sequence (events(on: [channels])) instead of one task per channel.")
    var oneSequence = false

    @Flag(help: "Run the built-in load server in this process, not in a child process.")
    var inProcess = false

    @Flag(help: "Run only the built-in load server: print 'port=N', serve until standard input closes.")
    var serve = false

    @Option(
        help:
            "Events each consumer buffers before the client pauses reading from the socket (default 10000)."
    )
    var bufferLimit: Int?

    @Option(help: "Give up after this many seconds.")
    var timeout = 600

    @Option(help: "With a real server: the application key.")
    var key: String?

    @Option(help: "A real server's Pusher cluster (ws-CLUSTER.pusher.com).")
    var cluster: String?

    @Option(help: "A real server's host.")
    var host: String?

    @Option(help: "A real server's port (default 443 with TLS, 80 without).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Use TLS with a real server.")
    var tls = true

    @Option(help: "With a real server: the public channel to measure.")
    var channel: String?

    var usesRealServer: Bool { self.host != nil || self.cluster != nil }

    func validate() throws {
        guard self.events >= 1 else { throw ValidationError("--events must be at least 1.") }
        guard self.timeout >= 1 else { throw ValidationError("--timeout must be at least 1.") }
        if let bufferLimit, bufferLimit < 1 { throw ValidationError("--buffer-limit must be at least 1.") }
        if self.usesRealServer {
            guard self.host == nil || self.cluster == nil else {
                throw ValidationError("Give either --cluster or --host.")
            }
            guard self.key != nil, self.channel != nil else {
                throw ValidationError("A real server needs --key and --channel.")
            }
            guard !self.serve, !self.inProcess, !self.encrypted, self.channels == 1 else {
                throw ValidationError(
                    "--serve, --in-process, --encrypted and --channels are for the built-in load server.")
            }
        } else {
            guard self.channel == nil, self.key == nil, self.port == nil else {
                throw ValidationError("--key, --port and --channel need --host or --cluster.")
            }
            guard self.payloadBytes >= 16 else { throw ValidationError("--payload-bytes must be at least 16.") }
            guard self.channels >= 1, self.channels <= self.events else {
                throw ValidationError("--channels must be from 1 to --events.")
            }
        }
    }

    func run() async throws {
        let configuration = PusherLoadServer.Configuration(
            channelCount: self.channels,
            eventsWhenSubscribed: self.events,
            payloadBytes: self.payloadBytes,
            encrypted: self.encrypted
        )
        if self.serve {
            try await PusherLoadServer.withRunning(configuration: configuration) { server in
                Output.line("port=\(server.port)")
                for await _ in StandardInput.lines() {}
            }
            return
        }
        let result: BenchResult
        if let channel = self.channel, let key = self.key {
            var clientConfiguration: PusherClientConfiguration
            if let host = self.host {
                clientConfiguration = PusherClientConfiguration(host: host, port: self.port, useTLS: self.tls)
            } else {
                clientConfiguration = PusherClientConfiguration(
                    endpoint: .cluster(self.cluster ?? "mt1", useTLS: self.tls))
                clientConfiguration.endpoint.port = self.port
            }
            Output.error(
                "bench: waiting for \(self.events) events on \(channel) at \(clientConfiguration.endpoint.host)")
            result = try await self.measure(key: key, clientConfiguration: clientConfiguration, channels: [channel])
        } else if self.inProcess {
            Output.line("bench: \(self.scenario), load server in this process (its CPU and memory are included)")
            result = try await PusherLoadServer.withRunning(configuration: configuration) { server in
                try await self.measure(
                    key: "load", clientConfiguration: server.clientConfiguration(), channels: configuration.channels)
            }
        } else {
            Output.line("bench: \(self.scenario), load server in a child process")
            var arguments = [
                "bench", "--serve", "--events", "\(self.events)", "--payload-bytes", "\(self.payloadBytes)",
            ]
            arguments += ["--channels", "\(self.channels)"] + (self.encrypted ? ["--encrypted"] : [])
            let server = try await LoadServerProcess.start(arguments: arguments)
            var clientConfiguration = PusherClientConfiguration(host: "127.0.0.1", port: server.port, useTLS: false)
            clientConfiguration.authorizer = PusherLoadServer.authorizer()
            var measured: BenchResult
            do {
                measured = try await self.measure(
                    key: "load", clientConfiguration: clientConfiguration, channels: configuration.channels)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            measured.serverCPUSeconds = ResourceUsage.children().cpuSeconds
            result = measured
        }
        for line in result.lines { Output.line(line) }
    }

    private var scenario: String {
        let kind = self.encrypted ? "encrypted" : "plain"
        return
            "\(kind), \(self.channels) channel\(self.channels == 1 ? "" : "s"), \(self.events) events of \(self.payloadBytes) bytes"
    }

    /// Consumes `events` events of `channels` with one `for try await` loop over one sequence.
    private static func consumeInOneSequence(
        client: PusherClient, channels: [String], events: Int, tracker: BenchTracker
    ) async throws {
        var received: [String: Int] = [:]
        var total = 0
        var quotas: [String: Int] = [:]
        for (index, channel) in channels.enumerated() {
            quotas[channel] = events / channels.count + (index < events % channels.count ? 1 : 0)
        }
        for try await event in client.events(on: channels) {
            let count = received[event.channel, default: 0] + 1
            received[event.channel] = count
            if count == 1 { tracker.firstEventOfChannel() }
            if count == quotas[event.channel] { tracker.channelFinished() }
            total += 1
            if total == events { return }
        }
        throw CLIError("the sequence ended after \(total) of \(events) events")
    }

    /// Connects one client, then consumes `events` events spread over `channels` (round-robin, as
    /// the load server sends them), one consumer task per channel.
    private func measure(key: String, clientConfiguration: PusherClientConfiguration, channels: [String]) async throws
        -> BenchResult
    {
        var clientConfiguration = clientConfiguration
        if let bufferLimit = self.bufferLimit { clientConfiguration.buffering.limit = bufferLimit }
        let events = self.events
        let started = BenchTracker.Mark.now()
        let tracker = BenchTracker(channels: channels.count)
        let client = PusherClient(key: key, configuration: clientConfiguration)
        try await withRunningClient(client) { client in
            var states = client.connectionStates.makeAsyncIterator()
            while let state = await states.next() {
                if case .connected = state { break }
                if case .failed(let error) = state { throw error }
            }
            tracker.connected()
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await state in client.connectionStates {
                        if case .failed(let error) = state { throw error }
                    }
                    return false
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(self.timeout))
                    throw CLIError("gave up after \(self.timeout) s (--timeout)")
                }
                group.addTask {
                    if self.oneSequence {
                        try await Self.consumeInOneSequence(
                            client: client, channels: channels, events: events, tracker: tracker)
                        return true
                    }
                    try await withThrowingDiscardingTaskGroup { consumers in
                        for (index, channel) in channels.enumerated() {
                            let quota = events / channels.count + (index < events % channels.count ? 1 : 0)
                            consumers.addTask {
                                var received = 0
                                // The client's buffering (flow control by default; see `clientConfiguration`).
                                for try await _ in client.events(on: channel) {
                                    if received == 0 { tracker.firstEventOfChannel() }
                                    received += 1
                                    if received == quota { break }
                                }
                                guard received == quota else {
                                    throw CLIError("\(channel) ended after \(received) of \(quota) events")
                                }
                                tracker.channelFinished()
                            }
                        }
                    }
                    return true
                }
                let finished = try await group.next() ?? false
                group.cancelAll()
                guard finished else { throw CLIError("the client stopped before every event arrived") }
            }
        }
        return try BenchResult(events: events, channels: channels.count, tracker: tracker, started: started)
    }
}
