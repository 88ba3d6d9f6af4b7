// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOSSL
import PusherChannelsServer

/// What the HTTP API commands need to make requests: the configuration and the extra certificate
/// authorities of `--ca-file` (``APIOptions/connection(environment:masterKey:limits:)``).
struct APIConnection: Sendable {
    let configuration: PusherServerConfiguration
    let certificates: [NIOSSLCertificate]?

    /// Runs `body` with a `PusherServer` on the library's shared client, or with `--ca-file` on one
    /// that also trusts its authorities (shut down when `body` returns). Neither follows a redirect
    /// (a 3xx is an error: a signed trigger is never sent on elsewhere) nor retries a connection
    /// that could not be established (a refused connection fails at once).
    func withServer<Result>(_ body: (PusherServer) async throws -> Result) async throws -> Result {
        guard let certificates else {
            return try await body(PusherServer(configuration: self.configuration))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(certificates)]
        var settings = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        settings.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
        do {
            let result = try await body(PusherServer(configuration: self.configuration, httpClient: client))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
