// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `doctor` against `pusher-channels serve`, run as a process of its own.
extension DoctorCommandTests {
    /// Runs `serve --port 0` with the test app's id, key and secret while `body` runs; passes the
    /// port it printed.
    func withServe(_ body: (Int) async throws -> Void) async throws {
        let serve = try CLIProcess([
            "serve", "--port", "0", "--app-id", Endpoints.appID, "--key", Endpoints.key, "--secret", Endpoints.secret,
        ])
        var lines = serve.lines.makeAsyncIterator()
        let line = try #require(await lines.next(), "stderr: \(serve.standardError)")
        let port = try #require(try JSONValue(parsing: line)["port"]?.intValue, "line: \(line)")
        do {
            try await body(port)
        } catch {
            serve.send(signal: SIGTERM)
            _ = await serve.exitStatus()
            throw error
        }
        serve.send(signal: SIGTERM)
        _ = await serve.exitStatus()
    }

    @Test("against serve: a correct set-up gives only ok and skip lines and exit 0; the wrong secret fails api")
    func againstServe() async throws {
        try await self.withServe { port in
            try await LoopbackHTTPServer.withRunning(reply: Endpoints.auth()) { auth in
                try await LoopbackHTTPServer.withRunning(reply: Endpoints.webhookReceiver()) { receiver in
                    let arguments = [
                        "--app-id", Endpoints.appID, "--key", Endpoints.key, "--host", "127.0.0.1:\(port)", "--no-tls",
                        "--auth-endpoint", "\(auth.url)/pusher/auth", "--webhook-url", receiver.url,
                    ]
                    let correct = try await self.doctor(arguments + ["--secret", Endpoints.secret])
                    #expect(correct.status == 0, "\(correct.summary)")
                    #expect(correct.lines.count == Self.checks.count, "\(correct.summary)")
                    #expect(
                        correct.lines.allSatisfy { $0.hasPrefix("ok ") || $0.hasPrefix("skip ") }, "\(correct.summary)")
                    #expect(correct.statuses["auth-presence"] == "ok", "\(correct.summary)")
                    #expect(correct.statuses["user-auth"] == "skip", "\(correct.summary)")

                    let wrong = try await self.doctor(arguments + ["--secret", "not-the-app-secret"])
                    #expect(wrong.status == 1, "\(wrong.summary)")
                    let api = try #require(wrong.line("api"), "\(wrong.summary)")
                    #expect(api.hasPrefix("fail api: "), "\(api)")
                    #expect(api.contains("the secret does not belong to the key \(Endpoints.key)"), "\(api)")
                }
            }
        }
    }
}
