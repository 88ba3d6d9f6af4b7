// SPDX-License-Identifier: MIT

import ArgumentParser
import Logging
import NIOConcurrencyHelpers
import PusherChannels
import PusherChannelsTesting

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

/// `pusher-channels serve`: a Pusher Channels server for local development, the testing library's
/// `FakePusherServer` behind a command line.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a Pusher Channels server for local development and tests.",
        discussion: ServeHelp.discussion
    )

    /// The bounds of `serve` (stated in `--help`).
    static let limits: FakePusherServer.Limits = {
        var limits = FakePusherServer.Limits(
            connections: 1_000, frameBytes: 256 * 1_024, requestBytes: 1 << 20, handshakeTimeout: .seconds(10),
            queuedFrames: 4_096)
        limits.pendingConnections = 256
        limits.queuedBytes = 4 << 20
        return limits
    }()
    /// Log lines written a second at most (the rest are counted).
    static let logLinesPerSecond = 100
    /// How long the connections get to answer the close frames at SIGINT or SIGTERM.
    static let closeGrace = Duration.seconds(2)
    /// The secret without --secret, --secret-file or PUSHER_SECRET.
    static let defaultSecret = "app-secret"

    @Option(help: "The port to listen on (0: any free port, printed on standard output).")
    var port = 6001

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var bind = "127.0.0.1"

    @Option(name: .customLong("app-id"), help: "The app id of the HTTP API's paths (/apps/ID/...).")
    var appID = "1"

    @Option(help: "The app key clients connect with (/app/KEY).")
    var key = "app-key"

    /// Without any, ``defaultSecret``.
    @OptionGroup var secret: SecretOptions

    @Option(
        name: .customLong("webhook-url"),
        help: "A receiver of the server's webhooks (http:// or https://; repeatable).")
    var webhookURLs: [String] = []

    @Flag(
        name: .customLong("auth-endpoints"),
        help: ArgumentHelp(
            "Also serve POST /pusher/auth and /pusher/user-auth, which sign ANY request (any channel, any user id) with the secret.",
            discussion:
                "For trying a client without a backend of your own; anyone who can reach the port can then subscribe to every private and presence channel."
        ))
    var authEndpoints = false

    @Option(
        name: .customLong("allowed-origin"),
        help:
            "An Origin a browser's WebSocket may come from, e.g. http://localhost:3000 (repeatable; without any, every origin)."
    )
    var allowedOrigins: [String] = []

    @Option(
        name: .customLong("activity-timeout"),
        help:
            "Seconds of silence before a connection is pinged (announced to clients as activity_timeout); no answer within 30 s closes it with 4201."
    )
    var activityTimeout = 120

    @Option(
        name: .customLong("log-level"),
        help:
            "What is logged on standard error: none, error, info (connections, refusals, failed webhooks) or debug (every frame too)."
    )
    var logLevel: LogLevel = .info

    func validate() throws {
        guard (0...65_535).contains(self.port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard !self.key.isEmpty, !self.key.contains("/"), !self.key.contains("?") else {
            throw ValidationError("--key must be non-empty, without / or ?.")
        }
        guard !self.appID.isEmpty, !self.appID.contains("/"), !self.appID.contains("?") else {
            throw ValidationError("--app-id must be non-empty, without / or ?.")
        }
        guard !self.bind.isEmpty else { throw ValidationError("--bind is empty.") }
        guard (1...86_400).contains(self.activityTimeout) else {
            throw ValidationError("--activity-timeout must be 1 to 86400 seconds.")
        }
        for url in self.webhookURLs {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false
            else {
                // Never the URL's user name and password.
                let shown = TerminalText.escaped(FakePusherServer.WebhookTarget.redactingCredentials(url))
                throw ValidationError("--webhook-url \(shown) is not an http:// or https:// URL.")
            }
        }
        for origin in self.allowedOrigins where origin.isEmpty || origin.contains(" ") {
            throw ValidationError(
                "--allowed-origin \(TerminalText.escaped(origin)) is not an origin such as http://localhost:3000.")
        }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let secret: String
        do throws(CLIError) {
            secret = try self.secret.given(environment: ProcessInfo.processInfo.environment) ?? Self.defaultSecret
        } catch {
            Output.error("error: \(error.description)")
            throw ExitStatus.usage
        }
        // Signals are watched before the address is printed: whoever waits for it may signal at once.
        let signals = await SignalWatcher.start()
        let started = Serve.Start()
        do {
            try await FakePusherServer.withRunning(configuration: self.serverConfiguration(secret: secret)) { server in
                started.mark()
                Output.line(self.announcement(port: server.port))
                if !ConnectionSecurity.isLoopback(self.bind) {
                    Output.error("warning: --bind \(self.bind): clients connect over plain ws:// and http://")
                }
                Output.error(
                    "serve: listening on \(self.bind):\(server.port): WebSocket ws://HOST:\(server.port)/app/\(self.key), "
                        + "HTTP API http://HOST:\(server.port)/apps/\(self.appID)/")
                let number = await signals.first()
                Output.error("serve: \(number == SIGINT ? "SIGINT" : "SIGTERM"): closing every connection")
                ShutdownDeadline.start()
                await server.close(code: 4200, reason: "Server shutting down")
                await Self.waitForClosedConnections(of: server)
            }
        } catch {
            guard started.isMarked else {
                Output.error("error: cannot listen on \(self.bind):\(self.port): \(error)")
                throw ExitStatus.connectionFailed
            }
            Output.error("error: \(error)")
            throw ExitStatus.connectionFailed
        }
        Output.error("serve: stopped")
    }

    /// The fake server as `serve` runs it: the given app, bound, soketi's answer to a bad
    /// subscription signature, every webhook URL signed with the app's key and secret.
    func serverConfiguration(secret: String) -> FakePusherServer.Configuration {
        let targets = self.webhookURLs.map { FakePusherServer.WebhookTarget(url: $0, key: self.key, secret: secret) }
        var configuration = FakePusherServer.Configuration(
            appKey: self.key, appSecret: secret, appID: self.appID, triggerLimits: .pusher, webhooks: targets.first)
        configuration.additionalWebhooks = Array(targets.dropFirst())
        configuration.bindAddress = self.bind
        configuration.port = self.port
        configuration.authRefusal = .subscriptionError
        configuration.limits = Self.limits
        configuration.activityTimeout = self.activityTimeout
        // A server left running keeps nothing of a connection once it closes.
        configuration.recordsTraffic = false
        configuration.servesAuthEndpoints = self.authEndpoints
        configuration.allowedOrigins = self.allowedOrigins
        if let level = self.logLevel.loggerLevel {
            configuration.logger = Logger(label: "pusher-channels.serve") { _ in
                ServeLogHandler(
                    level: level,
                    lines: RejectionLog(linesPerSecond: Self.logLinesPerSecond, command: "serve", noun: "log line"))
            }
        }
        return configuration
    }

    /// The one line on standard output: where the server listens and the app (never the secret).
    func announcement(port: Int) -> String {
        #"{"host":"# + JSONValue.string(Self.connectableHost(self.bind)).jsonText + #","port":\#(port),"app_id":"#
            + JSONValue.string(self.appID).jsonText + #","key":"# + JSONValue.string(self.key).jsonText + "}"
    }

    /// The address a client on this machine connects to for `bind`: loopback for the wildcard
    /// addresses (nobody can connect to `0.0.0.0` or `::`), `bind` itself otherwise.
    static func connectableHost(_ bind: String) -> String {
        switch bind {
        case "0.0.0.0": "127.0.0.1"
        case "::", "::0", "0:0:0:0:0:0:0:0": "::1"
        default: bind
        }
    }

    /// Returns once every connection has closed, or after ``closeGrace``.
    private static func waitForClosedConnections(of server: FakePusherServer) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await server.waitUntil { $0.openConnections.isEmpty } }
            group.addTask { try? await Task.sleep(for: Self.closeGrace) }
            await group.next()
            group.cancelAll()
        }
    }
}

extension Serve {
    /// Whether `serve`'s server started listening: an error before tells that it could not listen.
    final class Start: Sendable {
        private let marked = NIOLockedValueBox(false)

        func mark() {
            self.marked.withLockedValue { $0 = true }
        }

        var isMarked: Bool { self.marked.withLockedValue { $0 } }
    }

    /// `serve --log-level`: what `serve` writes on standard error.
    enum LogLevel: String, ExpressibleByArgument, CaseIterable {
        case none
        case error
        case info
        case debug

        /// The level of the server's logger; nil logs nothing.
        var loggerLevel: Logger.Level? {
            switch self {
            case .none: nil
            case .error: .error
            case .info: .info
            case .debug: .debug
            }
        }
    }
}
