// SPDX-License-Identifier: MIT

import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Listen {
    /// The client configuration of this command line, with the secrets of `credentials`.
    func clientConfiguration(_ credentials: ListenCredentials) throws(CLIError) -> PusherClientConfiguration {
        var configuration: PusherClientConfiguration
        let endpoints = try self.hostEndpoints()
        if let first = endpoints.first {
            configuration = PusherClientConfiguration(endpoint: first)
            configuration.fallbackEndpoints = Array(endpoints.dropFirst())
        } else {
            configuration = PusherClientConfiguration(endpoint: .cluster(self.cluster ?? "mt1", useTLS: self.tls))
            configuration.endpoint.port = self.port
            configuration.endpoint.path = self.path
        }
        if let caFile {
            do {
                try configuration.trustCertificateAuthorities(pemFile: caFile)
            } catch {
                throw CLIError("--ca-file: \(error.message)")
            }
        }
        // A bad --host, --cluster, --port or --path is a usage error, not a connection failure.
        do {
            for endpoint in [configuration.endpoint] + configuration.fallbackEndpoints {
                _ = try endpoint.url(key: self.key, client: "pusher-channels", version: "0")
            }
        } catch {
            throw CLIError(error.message)
        }
        var headers: [HeaderLine] = []
        for line in self.upgradeHeaders { headers.append(try Self.upgradeHeader(line)) }
        configuration.headers = HeaderLine.dictionary(headers)
        configuration.buffering = BufferingPolicy(limit: self.bufferLimit, whenFull: self.whenFull.policy)
        configuration.proxy = try self.proxySetting()
        configuration.authorizer = self.authorizer(credentials)
        configuration.userAuthenticator = self.userAuthenticator(credentials)
        return configuration
    }

    func authorizer(_ credentials: ListenCredentials) -> ChannelAuthorizer? {
        if let authEndpoint, let url = URL(string: authEndpoint) {
            return .endpoint(url, headers: credentials.headers)
        }
        guard let secret = credentials.secret else { return nil }
        let member = self.userID.map {
            PresenceMember(userID: $0, userInfo: self.userInfo.flatMap { try? JSONValue(parsing: $0) })
        }
        guard let member else { return .signing(key: self.key, secret: secret, masterKey: credentials.masterKey) }
        return .signing(key: self.key, secret: secret, masterKey: credentials.masterKey) { @Sendable _ in member }
    }

    func userAuthenticator(_ credentials: ListenCredentials) -> UserAuthenticator? {
        guard self.signIn else { return nil }
        if let userAuthEndpoint, let url = URL(string: userAuthEndpoint) {
            return .endpoint(url, headers: credentials.headers)
        }
        guard let secret = credentials.secret, let userID else { return nil }
        let userData = UserAuthenticator.userData(
            id: userID, info: self.userInfo.flatMap { try? JSONValue(parsing: $0) }, watchlist: self.watchlist)
        return .signing(key: self.key, secret: secret) { userData }
    }
}

extension Listen {
    /// The endpoints of `--host` (in order; `--port` for those without a port), none with `--cluster`.
    func hostEndpoints() throws(CLIError) -> [PusherEndpoint] {
        var endpoints: [PusherEndpoint] = []
        for text in self.hosts {
            let parsed = try HostArgument.parse(text)
            endpoints.append(
                PusherEndpoint(host: parsed.host, port: parsed.port ?? self.port, useTLS: self.tls, path: self.path))
        }
        return endpoints
    }

    /// One `--header 'Name: Value'` for the upgrade request: a valid header that is not one of the
    /// client's own (Host, Upgrade, Connection, Sec-WebSocket-*, …). Errors never repeat the value.
    static func upgradeHeader(_ line: String) throws(CLIError) -> HeaderLine {
        let header = try HeaderLine.parse(line, kind: "a header")
        do {
            try UpgradeHeaders.check(name: header.name, value: header.value)
        } catch {
            throw CLIError(error.message)
        }
        return header
    }
}
