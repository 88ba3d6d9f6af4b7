// SPDX-License-Identifier: MIT

import Logging
import PusherCore

extension PusherClient {
    /// The endpoint of the latest connection attempt: the one the client is connected or connecting
    /// to, or (while waiting to reconnect) the one the failed attempt went to. Before any attempt,
    /// the first endpoint.
    public var currentEndpoint: PusherEndpoint {
        self.withEngine { $0.currentEndpoint }
    }

    /// Connection states, starting with the current one, each with the endpoint of the latest
    /// attempt when it was published (for `connecting`, the endpoint of that attempt).
    package nonisolated var connectionStatesAtEndpoints: PusherSequence<EndpointConnectionState> {
        PusherSequence { [self] in
            self.observe(ConsumerRegistry.Observer.statesAtEndpoints) { driver in
                EndpointConnectionState(state: driver.publishedState, endpoint: driver.publishedEndpoint)
            }
        }
    }

    /// Switches to other endpoints at runtime, and to another app with `key` (like pusher-js's
    /// `switchCluster({appKey, cluster})`): `endpoint` first, then `fallbacks` in order, round
    /// robin, as ``PusherClientConfiguration/fallbackEndpoints`` are.
    ///
    /// An app lives in one cluster of hosted Pusher, so moving to another cluster means another
    /// app: pass its `key` (the cluster refuses a key it does not know with close code 4001), and
    /// its `authorizer` when private and presence channels are signed per app (as
    /// ``ChannelAuthorizer/signing(key:secret:masterKey:presenceMember:)`` does). Without them the
    /// key and the authorizer stay as they are, which suits other servers of the same app
    /// (self-hosted servers, failover).
    ///
    /// When connected, connecting or waiting to reconnect, the client drops the connection and
    /// connects to `endpoint` at once; every subscription is kept and made again there (authorized
    /// afresh), so the sequences of events go on with the new server's events. Disconnected or
    /// failed, it only changes where the next ``connect()`` goes.
    ///
    /// - Throws: ``PusherError`` with code `invalidConfiguration` when an endpoint cannot form a
    ///   connection URL (an invalid host, port or path, or key), or when the client's configuration is
    ///   invalid; the endpoints, key and authorizer are then left as they were.
    public func switchEndpoint(
        to endpoint: PusherEndpoint, fallbacks: [PusherEndpoint] = [], key: String? = nil,
        authorizer: ChannelAuthorizer? = nil
    ) throws(PusherError) {
        let key = key ?? self.key
        let first = try ConnectionEndpoint(endpoint, key: key)
        let rest = try fallbacks.map { fallback throws(PusherError) in try ConnectionEndpoint(fallback, key: key) }
        try self.withEngine { driver throws(PusherError) in
            if case .failure(let error) = driver.configuredEndpoints { throw error }
            driver.endpointRotation?.replace(first: first, fallbacks: rest)
            driver.key = key
            if let authorizer {
                driver.authorizer = authorizer
                driver.engine.authorizerChanged(hasAuthorizer: true, localAuthorization: authorizer.local)
            }
            driver.log(
                .notice, "switching endpoint",
                ["pusher.host": "\(endpoint.host)", "pusher.fallbacks": "\(fallbacks.count)"])
            driver.engine.endpointsChanged(count: 1 + rest.count)
            driver.perform(driver.engine.restart(at: driver.clock.now))
        }
    }

    /// The headers of the upgrade request of one attempt: ``PusherClientConfiguration/headers`` with those
    /// of ``PusherClientConfiguration/headersProvider`` (called now) replacing the ones of the same name;
    /// nil when the client gives the attempt up (`abandoned` fires) first, which cancels the
    /// current task (see ``WaitableState/run(until:_:)``).
    ///
    /// - Throws: ``PusherError`` when the provider fails or gives a header that is refused.
    nonisolated func upgradeHeaders(abandoned: WaitableState<Bool>) async throws -> [(name: String, value: String)]? {
        guard let provider = self.configuration.headersProvider else {
            return try UpgradeHeaders.merged(self.configuration.headers, [:])
        }
        // The provider against the client giving the attempt up (its handshake timeout, say).
        let provided = await abandoned.run(until: { $0 }) { () async -> Result<[String: String], PusherError> in
            do {
                return .success(try await provider())
            } catch {
                return .failure(PusherError(.transportFailed, "the upgrade headers provider failed", cause: error))
            }
        }
        guard let provided else { return nil }
        return try UpgradeHeaders.merged(self.configuration.headers, try provided.get())
    }
}
