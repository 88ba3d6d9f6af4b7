// SPDX-License-Identifier: MIT

import AsyncHTTPClient
import NIOConcurrencyHelpers

/// The auth endpoints' HTTP clients for proxies: one per proxy, created on first use, at most
/// ``limit`` of them. The shared cache's clients are never shut down, like
/// `AuthEndpointClient.sharedClient`.
final class ProxyClientCache: Sendable {
    /// The cache of the package's auth endpoint calls.
    static let shared = ProxyClientCache(limit: 8)

    /// Distinct proxies that get a cached client.
    let limit: Int
    private let clients = NIOLockedValueBox<[PusherProxy: HTTPClient]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// The cached client of `proxy` (`isOwn` false), made by `make` on first use; past ``limit``, a
    /// new one from `make` that the caller shuts down after its request (`isOwn` true).
    func client(for proxy: PusherProxy, make: () -> HTTPClient) -> (client: HTTPClient, isOwn: Bool) {
        self.clients.withLockedValue { clients in
            if let client = clients[proxy] { return (client, false) }
            let client = make()
            guard clients.count < self.limit else { return (client, true) }
            clients[proxy] = client
            return (client, false)
        }
    }

    /// Shuts every cached client down and forgets them (for tests' own caches).
    func shutdown() async throws {
        let clients = self.clients.withLockedValue { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in clients { try await client.shutdown() }
    }
}
