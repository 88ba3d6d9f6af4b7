// SPDX-License-Identifier: MIT

import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Foundation
import PusherChannels
import UnixSignals

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Subscribe to channels and print their events as JSON lines.",
        discussion: """
            Each event is one JSON object on standard output: {"channel", "event", "data", "user_id"?}, \
            with "data" exactly as received. On presence channels, membership changes are printed too: \
            {"channel", "presence": "snapshot"|"added"|"removed", …}. Connection states and errors go to \
            standard error. Lines on standard input, "CHANNEL EVENT JSON", are sent as client events. \
            The command runs until interrupted (SIGINT/SIGTERM), until --count events have arrived, \
            or until the connection fails for good (exit status 1).

            Private and presence channels need --auth-endpoint (your backend) or --secret (signs \
            in-process; only where the app secret is safe, never on users' devices). Encrypted channels \
            (private-encrypted-…) print their decrypted data; with --secret they also need --master-key. \
            Decryption failures go to standard error.

            --sign-in signs in as a user (with --user-auth-endpoint, or --secret and --user-id) and prints \
            the user's events like channel events (channel "#server-to-user-ID") and watchlist changes as \
            {"watchlist": "online"|"offline", "user_id"}.

            Examples:
              pusher-channels listen --key APP_KEY --cluster eu --channel prices
              pusher-channels listen --key app-key --host 127.0.0.1 --port 6001 --no-tls --channel chat --count 10 --stats
              pusher-channels listen --key KEY --cluster eu --secret SECRET --user-id 42 --channel presence-lobby
              pusher-channels listen --key KEY --cluster eu --auth-endpoint https://example.org/pusher/auth \\
                  --auth-header 'Authorization: Bearer TOKEN' --channel private-orders
              pusher-channels listen --key KEY --cluster eu --secret SECRET --master-key BASE64 \\
                  --channel private-encrypted-orders
              pusher-channels listen --key KEY --cluster eu --secret SECRET --user-id 42 --watch 7 --sign-in
              pusher-channels listen --key KEY --cluster eu --channels-file channels.txt --quiet --stats
            """
    )

    @Option(help: "The application key.")
    var key: String

    @Option(help: "Pusher cluster (connects to ws-CLUSTER.pusher.com). Use this or --host.")
    var cluster: String?

    @Option(help: "Host of a self-hosted server (soketi, Laravel Reverb, sockudo, …).")
    var host: String?

    @Option(help: "Port (default 443 with TLS, 80 without).")
    var port: Int?

    @Option(help: "Path prefix before /app/KEY, for servers mounted under a path.")
    var path: String = ""

    @Flag(inversion: .prefixedNo, help: "Use TLS (wss://).")
    var tls = true

    @Option(name: .customLong("channel"), help: "A channel to subscribe to (repeatable).")
    var channels: [String] = []

    @Option(
        name: .customLong("channels-file"),
        help: "A file naming channels to subscribe to, one a line ('#' starts a comment line; '-' reads standard input, which then sends no client events)."
    )
    var channelsFile: String?

    @Option(help: "Only print events with this name.")
    var event: String?

    @Option(help: "Exit after this many matching events.")
    var count: Int?

    @Flag(help: "Do not print events (with --stats, to measure throughput).")
    var quiet = false

    @Flag(help: "At exit, print 'events=N seconds=S rate=R/s' (S from the first to the last counted event).")
    var stats = false

    @Option(help: "Auth endpoint for private and presence channels (form POST of socket_id and channel_name).")
    var authEndpoint: String?

    @Option(name: .customLong("auth-header"), help: "A header sent to the auth endpoint, 'Name: value' (repeatable).")
    var authHeaders: [String] = []

    @Option(help: "The app secret: signs private and presence channels in-process (servers only).")
    var secret: String?

    @Option(name: .customLong("user-id"), help: "Your user id on presence channels, with --secret.")
    var userID: String?

    @Option(name: .customLong("user-info"), help: "Your user_info on presence channels and for --sign-in, with --secret (JSON).")
    var userInfo: String?

    @Option(help: "The app's encryption master key (base64 of 32 bytes), with --secret, for private-encrypted channels.")
    var masterKey: String?

    @Flag(help: "Sign in as a user; print the user's events and watchlist changes.")
    var signIn = false

    @Option(help: "User-auth endpoint for --sign-in (form POST of socket_id); default: sign with --secret and --user-id.")
    var userAuthEndpoint: String?

    @Option(name: .customLong("watch"), help: "A user id for the watchlist of --sign-in, with --secret (repeatable).")
    var watchlist: [String] = []

    func validate() throws {
        if self.authEndpoint != nil && self.secret != nil { throw ValidationError("Give --auth-endpoint or --secret, not both.") }
        if let authEndpoint, URL(string: authEndpoint)?.scheme == nil { throw ValidationError("--auth-endpoint must be a URL.") }
        for header in self.authHeaders where !header.contains(":") { throw ValidationError("--auth-header takes 'Name: value'.") }
        if let userInfo, (try? JSONValue(parsing: userInfo)) == nil { throw ValidationError("--user-info must be JSON.") }
        if let masterKey, (try? EncryptionMasterKey.sharedSecret(forChannel: "private-encrypted-x", masterKey: masterKey)) == nil {
            throw ValidationError("--master-key must be base64 of 32 bytes.")
        }
        if let userAuthEndpoint, URL(string: userAuthEndpoint)?.scheme == nil { throw ValidationError("--user-auth-endpoint must be a URL.") }
        if self.signIn && self.userAuthEndpoint == nil && (self.secret == nil || self.userID == nil) {
            throw ValidationError("--sign-in needs --user-auth-endpoint, or --secret with --user-id.")
        }
        guard !self.channels.isEmpty || self.channelsFile != nil || self.signIn else {
            throw ValidationError("Give at least one --channel, a --channels-file, or --sign-in.")
        }
        guard (self.cluster == nil) != (self.host == nil) else { throw ValidationError("Give either --cluster or --host.") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
    }

    private enum Outcome: Sendable {
        case done
        case interrupted
        case failed(PusherError)
        case ended
    }

    func run() async throws {
        let channels: [String]
        do {
            channels = try ChannelsFile.merging(self.channels, withFile: self.channelsFile)
        } catch {
            Output.error("error: \(error)")
            throw ExitCode.validationFailure
        }
        var options: PusherClientOptions
        if let host {
            options = PusherClientOptions(host: host, port: self.port, useTLS: self.tls, path: self.path)
        } else {
            options = PusherClientOptions(endpoint: .cluster(self.cluster ?? "mt1", useTLS: self.tls))
            options.endpoint.port = self.port
            options.endpoint.path = self.path
        }
        options.authorizer = self.authorizer()
        options.userAuthenticator = self.userAuthenticator()
        let client = PusherClient(key: self.key, options: options)

        // `withRunning` closes the connection with a normal close frame when the body returns.
        let outcome = try await withRunning(client) { client in
            try await withThrowingTaskGroup(of: Outcome.self) { group in
                group.addTask {
                    for await state in client.connectionStates {
                        Output.error("state: \(state)")
                        if case .failed(let error) = state { return .failed(error) }
                    }
                    return .ended
                }
                group.addTask {
                    for await error in client.errors { Output.error("error: \(error)") }
                    return .ended
                }
                group.addTask {
                    for await failure in client.decryptionFailures() { Output.error("decryption failure: \(failure)") }
                    return .ended
                }
                group.addTask {
                    let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
                    for await _ in signals { return .interrupted }
                    return .ended
                }
                group.addTask {
                    for await line in Self.standardInputLines() { await Self.sendClientEvent(line, with: client) }
                    return .ended
                }
                for channel in channels where ChannelName.kind(of: channel) == .presence {
                    group.addTask {
                        do {
                            for try await change in client.presence(on: channel) { Output.line(Self.json(change, on: channel)) }
                        } catch {
                            Output.error("presence \(channel): \(error)")
                        }
                        return .ended
                    }
                }
                // Every channel (and the user's events) feeds one loop, which prints and counts.
                let (merged, sink) = AsyncThrowingStream.makeStream(of: ChannelEvent.self)
                if self.signIn {
                    group.addTask {
                        for await state in client.userStates { Output.error("user: \(state)") }
                        return .ended
                    }
                    group.addTask {
                        for await event in client.watchlistEvents {
                            Output.line(#"{"watchlist":"# + JSONWriter.quoted(event.status.rawValue) + #","user_id":"# + JSONWriter.quoted(event.userID) + "}")
                        }
                        return .ended
                    }
                    group.addTask {
                        do {
                            for try await event in client.userEvents(named: self.event) { sink.yield(event) }
                        } catch {
                            sink.finish(throwing: error)
                        }
                        return .ended
                    }
                    await client.waitForConsumers(on: PusherClient.userEventsConsumers)
                    try await client.signIn()
                }
                if !channels.isEmpty {
                    // One sequence for every channel: one task and one buffer, however many channels.
                    group.addTask {
                        do {
                            for try await event in client.events(on: channels, named: self.event) { sink.yield(event) }
                        } catch {
                            sink.finish(throwing: error)
                        }
                        return .ended
                    }
                }
                group.addTask {
                    var counter = EventCounter()
                    defer { if self.stats { Output.line(counter.summary) } }
                    for try await event in merged {
                        if !self.quiet { Output.line(Self.json(event)) }
                        if counter.record(limit: self.count) { return .done }
                    }
                    return .ended
                }
                var outcome = Outcome.ended
                while let next = try await group.next() {
                    if case .ended = next { continue }
                    outcome = next
                    break
                }
                group.cancelAll()
                return outcome
            }
        }

        Output.flush()
        if case .failed(let error) = outcome {
            Output.error("failed: \(error)")
            throw ExitCode.failure
        }
    }

    func authorizer() -> ChannelAuthorizer? {
        if let authEndpoint, let url = URL(string: authEndpoint) {
            return .endpoint(url, headers: self.headers())
        }
        guard let secret else { return nil }
        let member = self.userID.map { PresenceMember(userID: $0, userInfo: self.userInfo.flatMap { try? JSONValue(parsing: $0) }) }
        guard let member else { return .signing(key: self.key, secret: secret, masterKey: self.masterKey) }
        return .signing(key: self.key, secret: secret, masterKey: self.masterKey) { @Sendable _ in member }
    }

    func userAuthenticator() -> UserAuthenticator? {
        guard self.signIn else { return nil }
        if let userAuthEndpoint, let url = URL(string: userAuthEndpoint) {
            return .endpoint(url, headers: self.headers())
        }
        guard let secret, let userID else { return nil }
        let userData = UserAuthenticator.userData(id: userID, info: self.userInfo.flatMap { try? JSONValue(parsing: $0) }, watchlist: self.watchlist)
        return .signing(key: self.key, secret: secret) { userData }
    }

    /// The --auth-header values as a dictionary.
    func headers() -> [String: String] {
        var headers: [String: String] = [:]
        for header in self.authHeaders {
            let parts = header.split(separator: ":", maxSplits: 1)
            headers[parts[0].trimmingCharacters(in: .whitespaces)] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return headers
    }

    /// Lines of standard input, read on a thread of their own (reading blocks).
    ///
    /// Reads the file descriptor with `read(2)`, not through stdio: a thread blocked in `readLine()`
    /// holds stdin's stdio lock, and flushing all streams at exit would wait for it forever.
    static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        DispatchQueue.global().async {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
            continuation.finish()
        }
        return lines
    }

    /// Sends "CHANNEL EVENT JSON" as a client event.
    static func sendClientEvent(_ line: String, with client: PusherClient) async {
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2 else {
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { Output.error("client event: expected 'CHANNEL EVENT JSON', got '\(line)'") }
            return
        }
        do {
            try await client.trigger(parts[1], on: parts[0], data: parts.count > 2 ? parts[2] : "{}")
        } catch {
            Output.error("client event: \(error)")
        }
    }

    static func json(_ change: PresenceChange, on channel: String) -> String {
        func member(_ member: PresenceMember) -> String {
            var text = #""user_id":"# + JSONWriter.quoted(member.userID)
            if let info = member.userInfo { text += #","user_info":"# + info.jsonText }
            return text
        }
        let prefix = #"{"channel":"# + JSONWriter.quoted(channel)
        switch change {
        case .snapshot(let snapshot):
            let members = snapshot.members.map { "{" + member($0) + "}" }.joined(separator: ",")
            let me = snapshot.me.map { #","me":"# + JSONWriter.quoted($0.userID) } ?? ""
            return prefix + #","presence":"snapshot","members":["# + members + "]" + me + "}"
        case .added(let added):
            return prefix + #","presence":"added","# + member(added) + "}"
        case .removed(let removed):
            return prefix + #","presence":"removed","# + member(removed) + "}"
        }
    }

    static func json(_ event: ChannelEvent) -> String {
        var line = #"{"channel":"# + JSONWriter.quoted(event.channel) + #","event":"# + JSONWriter.quoted(event.name)
        line += #","data":"# + JSONWriter.quoted(event.data)
        if let userID = event.userID { line += #","user_id":"# + JSONWriter.quoted(userID) }
        return line + "}"
    }
}
