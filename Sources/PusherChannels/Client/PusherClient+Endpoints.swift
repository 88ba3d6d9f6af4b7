// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// The endpoint of the latest connection attempt: the one the client is connected or connecting
    /// to, or (while waiting to reconnect) the one the failed attempt went to. Before any attempt,
    /// the first endpoint.
    public var currentEndpoint: PusherEndpoint {
        self.endpointRotation?.current.endpoint ?? self.options.endpoint
    }

    /// Connection states, starting with the current one, each with the endpoint of the latest
    /// attempt when it was published (for `connecting`, the endpoint of that attempt).
    package nonisolated var connectionStatesAtEndpoints: PusherSequence<EndpointConnectionState> {
        PusherSequence { [observers] in observers.observeStatesAtEndpoints() }
    }

    /// Switches to other endpoints at runtime (like pusher-js's `switchCluster`): `endpoint` first,
    /// then `fallbacks` in order, round robin, as ``PusherClientOptions/fallbackEndpoints`` are.
    ///
    /// When connected, connecting or waiting to reconnect, the client drops the connection and
    /// connects to `endpoint` at once; every subscription is kept and made again there, so the
    /// sequences of events go on with the new server's events. Disconnected or failed, it only
    /// changes where the next ``connect()`` goes.
    ///
    /// - Throws: ``PusherError`` with code `invalidConfiguration` when an endpoint cannot form a
    ///   connection URL (an invalid host, port or path), or when the client's options are invalid;
    ///   the endpoints are then left as they were.
    public func switchEndpoint(to endpoint: PusherEndpoint, fallbacks: [PusherEndpoint] = []) throws(PusherError) {
        if case .failure(let error) = self.configuredEndpoints { throw error }
        let first = try ConnectionEndpoint(endpoint, key: self.key)
        let rest = try fallbacks.map { fallback throws(PusherError) in try ConnectionEndpoint(fallback, key: self.key) }
        self.endpointRotation?.replace(first: first, fallbacks: rest)
        self.log(
            .notice, "switching endpoint",
            ["pusher.host": "\(endpoint.host)", "pusher.fallbacks": "\(fallbacks.count)"])
        self.registerPendingConsumers()
        self.engine.endpointsChanged(count: 1 + rest.count)
        self.perform(self.engine.restart(at: self.clock.now))
    }

    /// The endpoints of `options` with their URLs, or why the options are invalid or cannot form a URL.
    static func endpointRotation(
        options: PusherClientOptions, key: String
    ) -> Result<EndpointRotation<ConnectionEndpoint>, PusherError> {
        Result { () throws(PusherError) in
            try options.validate()
            let first = try ConnectionEndpoint(options.endpoint, key: key)
            let fallbacks = try options.fallbackEndpoints.map { endpoint throws(PusherError) in
                try ConnectionEndpoint(endpoint, key: key)
            }
            return EndpointRotation(first: first, fallbacks: fallbacks)
        }
    }

    /// The endpoint of the attempt being opened, moving on to the next one when the previous attempt
    /// was never established.
    func nextEndpoint() -> ConnectionEndpoint? {
        guard let attempt = self.endpointRotation?.nextAttempt() else { return nil }
        if attempt.movedOn {
            var metadata: Logger.Metadata = ["pusher.host": "\(attempt.endpoint.endpoint.host)"]
            if let port = attempt.endpoint.endpoint.port { metadata["pusher.port"] = "\(port)" }
            self.log(.notice, "trying the next endpoint", metadata)
        }
        return attempt.endpoint
    }

    /// The headers of the upgrade request of one attempt: ``PusherClientOptions/headers`` with those
    /// of ``PusherClientOptions/headersProvider`` (called now) replacing the ones of the same name.
    nonisolated func upgradeHeaders() async throws(PusherError) -> [(name: String, value: String)] {
        guard let provider = self.options.headersProvider else {
            return try UpgradeHeaders.merged(self.options.headers, [:])
        }
        let provided: [String: String]
        do {
            provided = try await provider()
        } catch {
            throw PusherError(.transportFailed, "the upgrade headers provider failed", cause: error)
        }
        return try UpgradeHeaders.merged(self.options.headers, provided)
    }
}
