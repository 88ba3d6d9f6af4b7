// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels

#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Runs examples either against a real server or offline, against an in-process fake server.
///
/// With `PUSHER_KEY` set it connects to `PUSHER_CLUSTER` (default `mt1`), or to `PUSHER_HOST`
/// (with `PUSHER_PORT`, `PUSHER_TLS=0|1`, `PUSHER_PATH`). Otherwise it starts a
/// ``FakePusherServer`` and hands it to the body, which can then play the server's part.
public enum ExampleEnvironment {
    /// The channel examples listen to: `PUSHER_CHANNEL`, or `fallback`.
    public static func channel(default fallback: String) -> String {
        ProcessInfo.processInfo.environment["PUSHER_CHANNEL"] ?? fallback
    }

    /// Whether the examples run against a real server.
    public static var isOnline: Bool { ProcessInfo.processInfo.environment["PUSHER_KEY"] != nil }

    /// One line saying where the examples connect, for them to print.
    public static var summary: String {
        isOnline
            ? "Connecting to the server named by PUSHER_* (press Ctrl-C to stop)."
            : "No PUSHER_KEY set: running offline against the in-process fake server."
    }

    /// Runs `body` with a running client; `server` is the fake server when offline, nil when online.
    public static func withClient<Result: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (_ client: PusherClient, _ server: FakePusherServer?) async throws -> Result
    ) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment
        if let key = environment["PUSHER_KEY"] {
            var options = PusherClientOptions(cluster: environment["PUSHER_CLUSTER"] ?? "mt1")
            if let host = environment["PUSHER_HOST"] {
                options = PusherClientOptions(
                    host: host,
                    port: environment["PUSHER_PORT"].flatMap(Int.init),
                    useTLS: environment["PUSHER_TLS"] != "0",
                    path: environment["PUSHER_PATH"] ?? ""
                )
            }
            return try await withPusherClient(key: key, options: options, isolation: isolation) { client in
                try await body(client, nil)
            }
        }
        return try await FakePusherServer.withRunning(isolation: isolation) { server in
            let client = PusherClient(key: server.appKey, options: server.clientOptions())
            return try await withRunning(client, isolation: isolation) { client in
                try await body(client, server)
            }
        }
    }
}
