// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// `trigger` against the answers real servers send, and against redirects it must not follow.
extension CLITests {
    static let goodBatchLine = #"{"channel":"c","event":"e","data":"x"}"#

    @Test(
        "trigger --batch succeeds, every batch sent, with Reverb's {\"batch\":{}}, soketi's {\"ok\":true} and a proxy's OK",
        arguments: [#"{"batch":{}}"#, #"{"ok":true}"#, "OK"]
    )
    func batchAnswers(answer: String) async throws {
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { _ in (200, answer) }
        ) { server in
            let input = Array(repeating: Self.goodBatchLine, count: 25).joined(separator: "\n") + "\n"
            let cli = try await self.run(self.apiArguments("trigger", server) + ["--batch"], input: input)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == [answer, answer, answer])
            #expect(cli.standardError.isEmpty, "stderr: \(cli.standardError)")
            #expect(server.requests.count == 3)
        }
    }

    @Test("trigger succeeds with a proxy's 2xx OK and prints it as returned")
    func triggerProxyAnswer() async throws {
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret, respond: { _ in (202, "OK") }) {
            server in
            let cli = try await self.run(
                self.apiArguments("trigger", server) + ["--channel", "c", "--event", "e", "--data", "{}"])
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == ["OK"])
            #expect(server.requests.count == 1)
        }
    }

    @Test(
        "trigger follows no redirect: a 303 or 307 to another port exits 1 and nothing is posted there",
        arguments: [303, 307])
    func triggerRedirect(status: Int) async throws {
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { target in
            let location = "http://127.0.0.1:\(target.port)/apps/cli-app/events"
            try await RecordingAPIServer.withRunning(
                key: Self.apiKey, secret: Self.secret, respond: { _ in (status, "") },
                headers: [("Location", location)]
            ) { origin in
                let cli = try await self.run(
                    self.apiArguments("trigger", origin) + ["--channel", "c", "--event", "e", "--data", "{}"])
                #expect(await cli.exitStatus() == 1, "stderr: \(cli.standardError)")
                #expect(cli.standardError.contains("HTTP \(status)"), "stderr: \(cli.standardError)")
                #expect(cli.standardOutputLines.isEmpty)
                #expect(origin.requests.count == 1)
                #expect(target.requests.isEmpty, "the trigger was sent on: \(target.requests)")
            }
        }
    }

    @Test(
        "trigger --ca-file follows no redirect either: https answering 307 to plain http exits 1, nothing posted there")
    func triggerRedirectWithCAFile() async throws {
        let caFile = try self.temporaryFile(TestCertificates.certificateAuthorityPEM)
        defer { try? FileManager.default.removeItem(at: caFile) }
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { target in
            let location = "http://127.0.0.1:\(target.port)/apps/cli-app/events"
            try await RecordingAPIServer.withRunning(
                key: Self.apiKey, secret: Self.secret, respond: { _ in (307, "") }, headers: [("Location", location)],
                tls: true
            ) { origin in
                let cli = try await self.run([
                    "trigger", "--app-id", "cli-app", "--key", Self.apiKey, "--secret", Self.secret, "--host",
                    "localhost", "--port", "\(origin.port)", "--ca-file", caFile.path, "--channel", "c", "--event", "e",
                    "--data", "{}",
                ])
                #expect(await cli.exitStatus() == 1, "stderr: \(cli.standardError)")
                #expect(cli.standardError.contains("HTTP 307"), "stderr: \(cli.standardError)")
                #expect(origin.requests.count == 1, "the TLS request did not arrive: \(cli.standardError)")
                #expect(target.requests.isEmpty, "the trigger was sent on over plain http: \(target.requests)")
            }
        }
    }
}
