// SPDX-License-Identifier: MIT

import NIOSSL
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `doctor` runs with, read once from the command line and the environment (secrets
/// included): where the WebSocket and the HTTP API are, the TLS trust and proxy of every
/// connection, the endpoints to check.
struct DoctorSettings: Sendable {
    var appID: String
    var key: String
    /// The app secret, when given: it signs the API request and the test webhooks, and recomputes
    /// the auth endpoints' signatures.
    var secret: String?
    /// The WebSocket's endpoint.
    var endpoint: PusherEndpoint
    /// The HTTP API's origin, such as `https://api-eu.pusher.com` or `http://127.0.0.1:6001`.
    var apiOrigin: String
    /// The HTTP API's host.
    var apiHost: String
    var tlsConfiguration: TLSConfiguration?
    var proxy: PusherClientConfiguration.ProxySetting
    var authEndpoint: String?
    var userAuthEndpoint: String?
    /// The headers sent to the auth endpoints.
    var authHeaders: [String: String]
    var webhookURL: String?
    var privateChannel: String
    var presenceChannel: String
    var encryptedChannel: String
    var skipped: Set<DoctorCheck>
    /// Every secret text that must never be printed: the app secret, the auth headers' values, the
    /// proxy's credentials.
    var secrets: [String]

    /// Reads the secrets and the files; a `CLIError` (a usage error) when one cannot be read.
    init(_ doctor: Doctor, environment: [String: String]) throws(CLIError) {
        self.appID = doctor.appID
        self.key = doctor.key
        self.secret = try doctor.secret.given(environment: environment)
        if let host = doctor.host {
            let parsed = try HostArgument.parse(host)
            let port = parsed.port ?? doctor.port
            self.endpoint = PusherEndpoint(host: parsed.host, port: port, useTLS: doctor.tls)
            let shown = parsed.host.contains(":") ? "[\(parsed.host)]" : parsed.host
            self.apiOrigin = "\(doctor.tls ? "https" : "http")://\(shown)\(port.map { ":\($0)" } ?? "")"
            self.apiHost = parsed.host
        } else {
            let cluster = doctor.cluster ?? "mt1"
            self.endpoint = .cluster(cluster, useTLS: doctor.tls)
            self.apiOrigin = "\(doctor.tls ? "https" : "http")://api-\(cluster).pusher.com"
            self.apiHost = "api-\(cluster).pusher.com"
        }
        do {
            _ = try self.endpoint.url(key: self.key, client: PusherClient.clientName, version: PusherClient.version)
        } catch {
            throw CLIError(error.message)
        }
        var options = PusherClientConfiguration(endpoint: self.endpoint)
        if let caFile = doctor.caFile {
            do {
                try options.trustCertificateAuthorities(pemFile: caFile)
            } catch {
                throw CLIError("--ca-file: \(error.message)")
            }
        }
        self.tlsConfiguration = options.tlsConfiguration
        var secrets: [String] = []
        if let proxy = doctor.proxy {
            do {
                let parsed = try PusherProxy(url: proxy)
                self.proxy = .proxy(parsed)
                secrets += [parsed.username, parsed.password].compactMap { $0 }
            } catch {
                throw CLIError("--proxy: \(error.message)")
            }
        } else {
            self.proxy = .environment
        }
        self.authEndpoint = doctor.authEndpoint
        self.userAuthEndpoint = doctor.userAuthEndpoint
        self.authHeaders = try Self.headers(doctor, environment: environment)
        self.webhookURL = doctor.webhookURL
        self.privateChannel = doctor.privateChannel
        self.presenceChannel = doctor.presenceChannel
        self.encryptedChannel = doctor.encryptedChannel
        self.skipped = Set(doctor.skipped)
        secrets += [self.secret].compactMap { $0 } + self.authHeaders.values
        // Short values (a header "X-Debug: 1") would blank out ordinary words; they are not secrets.
        self.secrets = secrets.filter { $0.count >= 4 }
    }

    /// The client options of the connection the checks make: this endpoint, trust and proxy; one
    /// attempt at a time within the request deadline, subscriptions not retried.
    func clientConfiguration() -> PusherClientConfiguration {
        var options = PusherClientConfiguration(endpoint: self.endpoint)
        options.tlsConfiguration = self.tlsConfiguration
        options.proxy = self.proxy
        options.handshakeTimeout = DoctorDeadline.request
        options.authorizationTimeout = DoctorDeadline.request
        options.closeTimeout = .seconds(1)
        options.subscriptionRetry = .never
        return options
    }

    /// `text` with every secret replaced by `***`.
    func redacted(_ text: String) -> String {
        var text = text
        for secret in self.secrets where text.contains(secret) {
            text = text.replacing(secret, with: "***")
        }
        return text
    }

    /// The auth endpoints' headers: those of `PUSHER_AUTH_HEADER`, then of `--auth-header-file`,
    /// then of `--auth-header`, a later one replacing an earlier one of the same name (as `listen`).
    private static func headers(_ doctor: Doctor, environment: [String: String]) throws(CLIError) -> [String: String] {
        var lines: [String] = []
        if let variable = environment[ListenCredentials.authHeaderVariable] { lines += Self.headerLines(variable) }
        if let file = doctor.authHeaderFile {
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
            } catch {
                throw CLIError("cannot read --auth-header-file \(file): \(ListenCredentials.reason(error))")
            }
            lines += Self.headerLines(text)
        }
        lines += doctor.authHeaders
        var headers: [HeaderLine] = []
        for line in lines { headers.append(try HeaderLine.parse(line)) }
        return HeaderLine.dictionary(headers)
    }

    private static func headerLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingWhitespace()
            return trimmed.isEmpty || trimmed.hasPrefix("#") ? nil : trimmed
        }
    }
}
