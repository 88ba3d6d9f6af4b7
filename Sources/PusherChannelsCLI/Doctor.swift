// SPDX-License-Identifier: MIT

import ArgumentParser
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pusher-channels doctor`: checks an app's set-up end to end (the WebSocket, the HTTP API, the
/// auth endpoints, the webhook endpoint) and says for each what it saw and, when it fails, why
/// and what to change.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an app's set-up: connection, HTTP API, auth endpoints, webhooks; say why what fails fails.",
        discussion: DoctorHelp.discussion
    )

    @Option(name: .customLong("app-id"), help: "The application id.")
    var appID: String

    @Option(help: "The application key.")
    var key: String

    @OptionGroup
    var secret: SecretOptions

    @Option(help: "Pusher cluster (ws-CLUSTER.pusher.com and api-CLUSTER.pusher.com). Use this or --host.")
    var cluster: String?

    @Option(
        help: ArgumentHelp(
            "Host of a self-hosted server (soketi, Laravel Reverb, sockudo, …) for the WebSocket and the HTTP API, H or H:P ([IPv6]:P).",
            valueName: "h[:p]"))
    var host: String?

    @Option(help: "Port of --host when it has none (default 443 with TLS, 80 without).")
    var port: Int?

    @Flag(inversion: .prefixedNo, help: "Use TLS (wss:// and https://).")
    var tls = true

    @Option(
        name: .customLong("ca-file"),
        help:
            "Trust the certificate authorities of this PEM file (a private CA) as well as the system's, for every connection."
    )
    var caFile: String?

    @Option(
        help: ArgumentHelp(
            "A proxy for every connection: http://[user:pass@]host:port or socks5://[user:pass@]host:port. Without it, HTTPS_PROXY or ALL_PROXY (and NO_PROXY) of the environment apply.",
            valueName: "url"))
    var proxy: String?

    @Option(help: "Your auth endpoint for private, presence and encrypted channels (form POST, as pusher-js sends).")
    var authEndpoint: String?

    @Option(help: "Your user-auth endpoint for user sign-in (form POST of socket_id).")
    var userAuthEndpoint: String?

    @Option(
        name: .customLong("auth-header"),
        help:
            "A header sent to the auth endpoints, 'Name: value' (repeatable; a session cookie or token; visible in ps: prefer --auth-header-file or PUSHER_AUTH_HEADER)."
    )
    var authHeaders: [String] = []

    @Option(
        name: .customLong("auth-header-file"),
        help: "A file of headers for the auth endpoints, 'Name: value' one a line.")
    var authHeaderFile: String?

    @Option(help: "Your webhook endpoint: sent a signed test webhook, a wrongly signed one and a re-serialised one.")
    var webhookURL: String?

    @Option(name: .customLong("private-channel"), help: "The private channel the auth checks ask for.")
    var privateChannel = "private-doctor"

    @Option(name: .customLong("presence-channel"), help: "The presence channel the auth checks ask for.")
    var presenceChannel = "presence-doctor"

    @Option(name: .customLong("encrypted-channel"), help: "The private-encrypted channel the auth checks ask for.")
    var encryptedChannel = "private-encrypted-doctor"

    @Option(
        name: .customLong("skip"),
        help: ArgumentHelp(
            "A check not to run (repeatable): \(DoctorCheck.names); for example auth-encrypted when the app has no encrypted channels.",
            valueName: "check"))
    var skipped: [DoctorCheck] = []

    @Flag(help: "Print one JSON object per check: {\"check\", \"status\", \"detail\"}.")
    var json = false

    func validate() throws {
        guard !self.appID.isEmpty else { throw ValidationError("--app-id is empty.") }
        guard (self.cluster == nil) != (self.host == nil) else {
            throw ValidationError("Give either --cluster or --host.")
        }
        if self.port != nil && self.host == nil { throw ValidationError("--port goes with --host.") }
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1 to 65535.") }
        if self.caFile != nil && !self.tls {
            throw ValidationError("--ca-file needs TLS; it does nothing with --no-tls.")
        }
        if let host {
            do throws(CLIError) {
                _ = try HostArgument.parse(host)
            } catch {
                throw ValidationError("\(error.description).")
            }
        }
        for (option, url) in [
            ("--auth-endpoint", self.authEndpoint), ("--user-auth-endpoint", self.userAuthEndpoint),
            ("--webhook-url", self.webhookURL),
        ] {
            guard let url else { continue }
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "http" || scheme == "https", parsed.host?.isEmpty == false
            else {
                throw ValidationError("\(option) must be an http:// or https:// URL.")
            }
        }
        for header in self.authHeaders {
            do throws(CLIError) {
                _ = try HeaderLine.parse(header)
            } catch {
                throw ValidationError("--auth-header: \(error.description).")
            }
        }
        for (option, name, kind, prefix) in [
            ("--private-channel", self.privateChannel, ChannelName.Kind.private, "private-"),
            ("--presence-channel", self.presenceChannel, .presence, "presence-"),
            ("--encrypted-channel", self.encryptedChannel, .privateEncrypted, "private-encrypted-"),
        ] {
            guard (try? ChannelName(validating: name))?.kind == kind else {
                throw ValidationError(
                    "\(option) '\(TerminalText.escaped(name))' is not a valid channel name starting with \(prefix).")
            }
        }
        if let proxy {
            do throws(PusherError) {
                _ = try PusherProxy(url: proxy)
            } catch {
                throw ValidationError("--proxy: \(error.message)")
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = try await APICall.prepared { () throws(CLIError) in
            try DoctorSettings(self, environment: environment)
        }
        let failed = try await DoctorRun(settings: settings, json: self.json).run()
        if failed { throw ExitStatus.connectionFailed }
    }
}
