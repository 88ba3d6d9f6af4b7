// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOSSL
import PusherChannelsServer

/// What the HTTP API commands need to make requests: the configuration and the extra certificate
/// authorities of `--ca-file` (``APIOptions/connection(environment:masterKey:limits:)``).
struct APIConnection: Sendable {
    let configuration: PusherServerConfiguration
    let certificates: [NIOSSLCertificate]?

    /// Runs `body` with a `PusherServer` on the shared HTTP client, or with `--ca-file` on one that
    /// also trusts its authorities (shut down when `body` returns).
    func withServer<Result>(_ body: (PusherServer) async throws -> Result) async throws -> Result {
        guard let certificates else {
            return try await body(PusherServer(configuration: self.configuration))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(certificates)]
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
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
