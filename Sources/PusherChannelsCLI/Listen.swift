// SPDX-License-Identifier: MIT

import ArgumentParser
import NIOConcurrencyHelpers
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Subscribe to channels and print their events as JSON lines.",
        discussion: ListenHelp.discussion
    )

    @Option(help: "The application key.")
    var key: String

    @Option(help: "Pusher cluster (connects to ws-CLUSTER.pusher.com). Use this or --host.")
    var cluster: String?

    @Option(
        name: .customLong("host"),
        help: ArgumentHelp(
            "Host of a self-hosted server (soketi, Laravel Reverb, sockudo, …), H or H:P ([IPv6]:P); repeatable: endpoints tried in order, moving to the next after a failed attempt.",
            valueName: "h[:p]"))
    var hosts: [String] = []

    @Option(help: "Port (default 443 with TLS, 80 without); for --host entries without one.")
    var port: Int?

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "A header added to the WebSocket upgrade request, 'Name: Value' (repeatable; a later one of the same name replaces an earlier one; not Host, Upgrade, Connection or Sec-WebSocket-*).",
            valueName: "header"))
    var upgradeHeaders: [String] = []

    @Option(help: "Path prefix before /app/KEY, for servers mounted under a path.")
    var path: String = ""

    @Flag(inversion: .prefixedNo, help: "Use TLS (wss://).")
    var tls = true

    @Option(
        name: .customLong("ca-file"),
        help:
            "Trust the certificate authorities of this PEM file (a private CA) as well as the system's, for the WebSocket and the auth endpoints."
    )
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "A proxy for the WebSocket and the auth endpoints: http://[user:pass@]host:port (HTTP CONNECT, also for wss) or socks5://[user:pass@]host:port. Without it, HTTPS_PROXY or ALL_PROXY (and NO_PROXY) of the environment apply.",
            valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("channel"), help: "A channel to subscribe to (repeatable).")
    var channels: [String] = []

    @Option(
        name: .customLong("channels-file"),
        help:
            "A file naming channels to subscribe to, one a line ('#' starts a comment line; '-' reads standard input, which then sends no client events); at most 16 MiB and 100000 channels."
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

    @Option(
        name: .customLong("buffer-limit"),
        help: "Events a consumer holds while standard output is behind (default 10000).")
    var bufferLimit: Int = BufferingPolicy.default.limit

    @Option(
        name: .customLong("when-full"),
        help:
            "When a consumer's buffer is full: pause-reading (stop reading the socket until it catches up; nothing is lost), fail (report, lose what was buffered beyond, subscribe again), drop-oldest or drop-newest."
    )
    var whenFull: WhenFull = .pauseReading

    @Option(help: "Auth endpoint for private and presence channels (form POST of socket_id and channel_name).")
    var authEndpoint: String?

    @Option(
        name: .customLong("auth-header"),
        help:
            "A header sent to the auth endpoints, 'Name: value' (repeatable; visible in ps: prefer --auth-header-file or PUSHER_AUTH_HEADER for tokens)."
    )
    var authHeaders: [String] = []

    @Option(
        name: .customLong("auth-header-file"),
        help: "A file of headers for the auth endpoints, 'Name: value' one a line.")
    var authHeaderFile: String?

    @Option(
        help:
            "The app secret: signs private and presence channels in-process (servers only; visible in ps: prefer --secret-file or PUSHER_SECRET)."
    )
    var secret: String?

    @Option(name: .customLong("secret-file"), help: "A file holding the app secret.")
    var secretFile: String?

    @Option(name: .customLong("user-id"), help: "Your user id on presence channels, with --secret.")
    var userID: String?

    @Option(
        name: .customLong("user-info"),
        help: "Your user_info on presence channels and for --sign-in, with --secret (JSON).")
    var userInfo: String?

    @Option(
        help:
            "The app's encryption master key (base64 of 32 bytes), with --secret, for private-encrypted channels (prefer --master-key-file or PUSHER_MASTER_KEY)."
    )
    var masterKey: String?

    @Option(name: .customLong("master-key-file"), help: "A file holding the encryption master key.")
    var masterKeyFile: String?

    @Flag(help: "Sign in as a user; print the user's events and watchlist changes.")
    var signIn = false

    @Option(
        help: "User-auth endpoint for --sign-in (form POST of socket_id); default: sign with --secret and --user-id.")
    var userAuthEndpoint: String?

    @Option(name: .customLong("watch"), help: "A user id for the watchlist of --sign-in, with --secret (repeatable).")
    var watchlist: [String] = []

    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        let hasSecret = ListenCredentials.hasSecret(self, environment: environment)
        if self.authEndpoint != nil && (self.secret != nil || self.secretFile != nil) {
            throw ValidationError("Give --auth-endpoint or --secret, not both.")
        }
        if let authEndpoint, URL(string: authEndpoint)?.scheme == nil {
            throw ValidationError("--auth-endpoint must be a URL.")
        }
        for header in self.authHeaders {
            do throws(CLIError) {
                _ = try HeaderLine.parse(header)
            } catch {
                throw ValidationError("--auth-header: \(error.description).")
            }
        }
        if let userInfo, (try? JSONValue(parsing: userInfo)) == nil {
            throw ValidationError("--user-info must be JSON.")
        }
        if let userAuthEndpoint, URL(string: userAuthEndpoint)?.scheme == nil {
            throw ValidationError("--user-auth-endpoint must be a URL.")
        }
        if self.signIn && self.userAuthEndpoint == nil && (!hasSecret || self.userID == nil) {
            throw ValidationError("--sign-in needs --user-auth-endpoint, or --secret with --user-id.")
        }
        guard !self.channels.isEmpty || self.channelsFile != nil || self.signIn else {
            throw ValidationError("Give at least one --channel, a --channels-file, or --sign-in.")
        }
        for header in self.upgradeHeaders {
            do throws(CLIError) {
                _ = try Self.upgradeHeader(header)
            } catch {
                throw ValidationError("--header: \(error.description).")
            }
        }
        for host in self.hosts {
            do throws(CLIError) {
                _ = try HostArgument.parse(host)
            } catch {
                throw ValidationError("\(error.description).")
            }
        }
        guard (self.cluster == nil) != self.hosts.isEmpty else {
            throw ValidationError("Give either --cluster or --host.")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        guard self.bufferLimit >= 1 else { throw ValidationError("--buffer-limit must be at least 1.") }
        if self.caFile != nil && !self.tls {
            throw ValidationError("--ca-file needs TLS; it does nothing with --no-tls.")
        }
        try self.validateProxy()
    }

    func run() async throws {
        // Writing to a closed pipe must fail with EPIPE (and end the run cleanly), not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let channels: [String]
        let clientConfiguration: PusherClientConfiguration
        do throws(CLIError) {
            channels = try ChannelsFile.merging(self.channels, withFile: self.channelsFile)
            let credentials = try ListenCredentials(self, environment: ProcessInfo.processInfo.environment)
            clientConfiguration = try self.clientConfiguration(credentials)
        } catch {
            throw ValidationError(error.description)
        }
        let authEndpoints = [("--auth-endpoint", self.authEndpoint), ("--user-auth-endpoint", self.userAuthEndpoint)]
        let warnings = ConnectionSecurity.warnings(
            usesTLS: self.tls,
            cluster: self.cluster,
            authEndpoints: authEndpoints.compactMap { option, url in url.map { (option, $0) } }
        )
        for warning in warnings { Output.error(warning) }

        let subscribable = Self.subscribable(channels, hasAuthorizer: clientConfiguration.authorizer != nil)
        if subscribable.isEmpty && !self.signIn {
            Output.error("every channel failed")
            throw ExitStatus.everyChannelFailed
        }

        let output = OutputWriter()
        output.watchForHangUp()
        let signals = await SignalWatcher.start()
        let clock = ContinuousClock()
        let client = PusherClient(key: self.key, configuration: clientConfiguration, clock: clock)
        let session = ListenSession(
            client: client,
            output: output,
            signals: signals,
            channels: subscribable,
            eventName: self.event,
            count: self.count,
            quiet: self.quiet,
            signIn: self.signIn,
            clock: clock,
            backoff: clientConfiguration.backoff
        )
        // `withRunningClient` closes the connection with a normal close frame when the body returns.
        let outcome = try await withRunningClient(client) { _ in try await session.run() }
        if self.stats {
            _ = await output.write(session.counter.summary(limit: self.count))
        }
        await output.drained()
        switch outcome {
        case .connectionFailed(let error): Output.error("failed: \(error)")
        case .outputClosed: Output.error("standard output closed")
        default: break
        }
        if outcome.exitCode.rawValue != 0 { throw outcome.exitCode }
    }

    /// The channels that can be subscribed: a valid name, and an authorizer for those that need one.
    /// The others are reported on standard error.
    static func subscribable(_ channels: [String], hasAuthorizer: Bool) -> [String] {
        channels.filter { name in
            do {
                let channel = try ChannelName(validating: name)
                guard !channel.requiresAuthorization || hasAuthorizer else {
                    throw PusherError(
                        .authorizationRequired, "\(channel.kind) channels need --auth-endpoint or --secret",
                        channel: name)
                }
                return true
            } catch {
                Output.error("error: \(error)")
                return false
            }
        }
    }
}

extension Listen {
    /// `listen --when-full`: what a consumer's full buffer does (see `BufferingPolicy`).
    enum WhenFull: String, ExpressibleByArgument, CaseIterable, Sendable {
        case pauseReading = "pause-reading"
        case fail
        case dropOldest = "drop-oldest"
        case dropNewest = "drop-newest"

        var policy: BufferingPolicy.WhenFull {
            switch self {
            case .pauseReading: .pauseReading
            case .fail: .fail
            case .dropOldest: .dropOldest
            case .dropNewest: .dropNewest
            }
        }
    }
}
