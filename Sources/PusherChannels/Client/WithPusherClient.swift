// SPDX-License-Identifier: MIT

import Logging
import PusherCore

/// Runs a client for the duration of `body`, then shuts it down gracefully (normal close) and
/// waits for it to finish.
///
/// ```swift
/// try await withPusherClient(key: "app-key", configuration: .init(cluster: "eu")) { client in
///     for try await event in client.events(on: "prices") { … }
/// }
/// ```
@discardableResult
public func withPusherClient<Result: Sendable>(
    key: String,
    configuration: PusherClientConfiguration = .init(),
    logger: Logger? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PusherClient) async throws -> Result
) async throws -> Result {
    try await withRunningClient(
        PusherClient(key: key, configuration: configuration, logger: logger), isolation: isolation, body)
}

/// Runs `client` for the duration of `body`, then shuts it down gracefully and waits for it.
/// Use this form to give the client a clock of your choice.
@discardableResult
public func withRunningClient<Result: Sendable>(
    _ client: PusherClient,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PusherClient) async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
        group.addTask { try await client.run() }
        let result: Result
        do {
            result = try await body(client)
        } catch {
            client.shutdown()
            try? await group.waitForAll()
            throw error
        }
        client.shutdown()
        try await group.waitForAll()
        return result
    }
}
