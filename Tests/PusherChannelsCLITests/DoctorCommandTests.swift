// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import PusherTestSupport
import Testing

/// `pusher-channels doctor` run as a process against the fake server (with its auth endpoints) and
/// small loopback endpoints, right or broken on purpose.
@Suite("pusher-channels doctor", .timeLimit(.minutes(1)))
struct DoctorCommandTests {
    typealias Endpoints = DoctorTestEndpoints

    /// What a run printed and how it ended.
    struct Run {
        var status: Int32?
        var lines: [String]
        var errors: String

        /// The line of `check`, whatever its status.
        func line(_ check: String) -> String? {
            self.lines.first { $0.split(separator: " ").dropFirst().first == "\(check):" }
        }

        /// The status word of each check, in the order printed.
        var statuses: [String: String] {
            var statuses: [String: String] = [:]
            for line in self.lines {
                let words = line.split(separator: " ")
                if words.count > 1 { statuses[String(words[1].dropLast())] = String(words[0]) }
            }
            return statuses
        }

        var summary: String {
            "status \(self.status.map(String.init) ?? "?")\n\(self.lines.joined(separator: "\n"))\nstderr: \(self.errors)"
        }
    }

    static let checks = ["connect", "api", "auth-private", "auth-presence", "auth-encrypted", "user-auth", "webhook"]

    /// Runs `doctor` with `arguments` to its end.
    func doctor(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let cli = try CLIProcess(["doctor"] + arguments, environment: environment)
        try? cli.stdin.fileHandleForWriting.close()
        let status = await cli.exitStatus()
        return Run(status: status, lines: cli.standardOutputLines, errors: cli.standardError)
    }

    /// The fake server with the app's key, secret, master key and id.
    func withServer(_ body: (FakePusherServer) async throws -> Void) async throws {
        let configuration = FakePusherServer.Configuration(
            appKey: Endpoints.key, appSecret: Endpoints.secret, encryptionMasterKey: Endpoints.masterKey,
            appID: Endpoints.appID)
        try await FakePusherServer.withRunning(configuration: configuration) { server in try await body(server) }
    }

    func appArguments(_ server: FakePusherServer, secret: String? = Endpoints.secret) -> [String] {
        ["--app-id", Endpoints.appID, "--key", Endpoints.key, "--host", "127.0.0.1:\(server.port)", "--no-tls"]
            + (secret.map { ["--secret", $0] } ?? [])
    }

    @Test(
        "a correct set-up (fake server, its auth endpoints, a receiver that verifies the raw body): only ok lines, exit 0"
    )
    func correctSetUp() async throws {
        try await self.withServer { server in
            try await LoopbackHTTPServer.withRunning(reply: Endpoints.webhookReceiver()) { receiver in
                let run = try await self.doctor(
                    self.appArguments(server, secret: nil) + [
                        "--auth-endpoint", server.authEndpoint.absoluteString, "--user-auth-endpoint",
                        server.userAuthEndpoint.absoluteString, "--auth-header",
                        "Authorization: Bearer token-of-doctor",
                        "--webhook-url", "\(receiver.url)/pusher/webhook",
                    ],
                    environment: ["PUSHER_SECRET": Endpoints.secret])
                #expect(run.status == 0, "\(run.summary)")
                #expect(
                    run.lines.map { $0.split(separator: " ").dropFirst().first.map(String.init) }
                        == Self.checks.map { "\($0):" })
                #expect(run.lines.allSatisfy { $0.hasPrefix("ok ") }, "\(run.summary)")
                #expect(run.line("connect")?.contains("ws://127.0.0.1:\(server.port)/app/\(Endpoints.key)") == true)
                #expect(
                    run.line("api")?.contains("GET http://127.0.0.1:\(server.port)/apps/\(Endpoints.appID)/channels")
                        == true)
                #expect(run.line("auth-presence")?.contains("channel_data user_id user-") == true)
                #expect(
                    run.line("auth-private")?.contains("the server accepted the subscription to private-doctor") == true
                )
                #expect(run.line("auth-encrypted")?.contains("shared_secret of 32 bytes") == true)
                #expect(run.line("user-auth")?.contains("the server accepted the sign-in") == true)
                #expect(run.line("webhook")?.contains("a wrong signature got HTTP 401") == true)
                // Three webhooks: signed, wrongly signed, re-serialised.
                #expect(receiver.requests.count == 3)
                let authRequests = await server.snapshot.authRequests
                #expect(authRequests.count == 4)
                #expect(authRequests.allSatisfy { $0.headers["authorization"] == "Bearer token-of-doctor" })
                #expect(authRequests.allSatisfy { $0.headers["content-type"] == "application/x-www-form-urlencoded" })
                #expect(
                    Set(authRequests.compactMap { $0.fields["channel_name"] }) == [
                        "private-doctor", "presence-doctor", "private-encrypted-doctor",
                    ])
                for text in [Endpoints.secret, "token-of-doctor"] {
                    #expect(!run.lines.joined().contains(text) && !run.errors.contains(text))
                }
            }
        }
    }

    @Test("only the key and host: connect is checked, every other check is skipped naming its option; exit 0")
    func skipsWithoutOptions() async throws {
        try await self.withServer { server in
            let run = try await self.doctor(self.appArguments(server, secret: nil), environment: ["PUSHER_SECRET": ""])
            #expect(run.status == 0, "\(run.summary)")
            #expect(
                run.statuses == [
                    "connect": "ok", "api": "skip", "auth-private": "skip", "auth-presence": "skip",
                    "auth-encrypted": "skip", "user-auth": "skip", "webhook": "skip",
                ], "\(run.summary)")
            #expect(run.line("api")?.contains("--secret") == true)
            #expect(run.line("auth-private")?.contains("--auth-endpoint") == true)
            #expect(run.line("user-auth")?.contains("--user-auth-endpoint") == true)
            #expect(run.line("webhook")?.contains("--webhook-url") == true)
        }
    }

    @Test("--json prints one object per check: check, status, detail, in the checks' order")
    func jsonShape() async throws {
        try await self.withServer { server in
            let run = try await self.doctor(
                self.appArguments(server) + [
                    "--json", "--auth-endpoint", server.authEndpoint.absoluteString, "--skip", "webhook",
                ])
            #expect(run.status == 0, "\(run.summary)")
            #expect(run.lines.count == Self.checks.count)
            var checks: [String] = []
            for line in run.lines {
                guard case .object(let object) = try JSONValue(parsing: line) else {
                    Issue.record("not an object: \(line)")
                    continue
                }
                #expect(Set(object.keys) == ["check", "status", "detail"], "\(line)")
                #expect(["ok", "warn", "fail", "skip"].contains(object["status"]?.stringValue ?? ""), "\(line)")
                #expect(object["detail"]?.stringValue?.isEmpty == false)
                checks.append(object["check"]?.stringValue ?? "")
            }
            #expect(checks == Self.checks)
            #expect(try JSONValue(parsing: run.lines[6])["status"] == "skip")
            #expect(try JSONValue(parsing: run.lines[2])["status"] == "ok")
        }
    }

    @Test(
        "usage errors exit 2 with one line on standard error and nothing on standard output",
        arguments: [
            (["--key", "k", "--cluster", "eu"], "--app-id"),
            (["--app-id", "1", "--key", "k"], "--cluster or --host"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--host", "h"], "--cluster or --host"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--port", "80"], "--port"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--auth-endpoint", "not a url"], "--auth-endpoint"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--webhook-url", "ftp://x/y"], "--webhook-url"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--skip", "everything"], "everything"),
            (["--app-id", "1", "--key", "k", "--cluster", "eu", "--presence-channel", "private-x"], "presence-"),
            (
                ["--app-id", "1", "--key", "k", "--cluster", "eu", "--secret-file", "/nonexistent/secret"],
                "no such file"
            ),
            (
                ["--app-id", "1", "--key", "k", "--cluster", "eu", "--auth-header", "Authorization Bearer x"],
                "auth header"
            ),
            (["--app-id", "1", "--key", "k", "--cluster", "bad cluster!"], "cluster"),
            (["--app-id", "1", "--key", "k", "--host", "h", "--no-tls", "--ca-file", "ca.pem"], "--ca-file"),
        ]
    )
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await self.doctor(arguments)
        #expect(run.status == 2, "\(run.summary)")
        #expect(run.errors.contains(message), "\(run.summary)")
        #expect(run.errors.split(separator: "\n").count == 1, "\(run.summary)")
        #expect(run.lines.isEmpty)
    }

    @Test("an unknown key: connect fails with the server's 4001, naming the key and what to check; exit 1")
    func unknownKey() async throws {
        try await self.withServer { server in
            var arguments = self.appArguments(server, secret: nil)
            arguments[3] = "not-the-key"
            let run = try await self.doctor(arguments)
            #expect(run.status == 1, "\(run.summary)")
            let line = try #require(run.line("connect"), "\(run.summary)")
            #expect(line.hasPrefix("fail connect: "))
            #expect(line.contains("4001") && line.contains("the key not-the-key is unknown"), "\(line)")
        }
    }

    @Test("nothing listening: connect and api fail with the refused connection, within the deadline; exit 1")
    func refusedConnection() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let run = try await self.doctor([
            "--app-id", "1", "--key", "k", "--secret", Endpoints.secret, "--host", "127.0.0.1:\(port)", "--no-tls",
        ])
        #expect(run.status == 1, "\(run.summary)")
        #expect(run.line("connect")?.hasPrefix("fail connect: ws://127.0.0.1:\(port)/app/k") == true, "\(run.summary)")
        #expect(run.line("api")?.contains("refused") == true, "\(run.summary)")
        withExtendedLifetime(refusing) {}
    }
}
