// SPDX-License-Identifier: MIT

import Foundation
import NIOConcurrencyHelpers
import PusherChannels
import Testing

// `trigger`, `channels`, `channel` and `users` against a loopback server that checks signatures.
extension CLITests {
    static let apiKey = "cli-key"

    func apiArguments(_ command: String, _ server: RecordingAPIServer) -> [String] {
        [
            command, "--app-id", "cli-app", "--key", Self.apiKey, "--secret", Self.secret, "--host", "127.0.0.1",
            "--port", "\(server.port)", "--no-tls",
        ]
    }

    /// Runs the CLI to its end with `input` on standard input.
    func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws
        -> CLIProcess
    {
        let cli = try CLIProcess(arguments, environment: environment)
        // `write(contentsOf:)` throws on a broken pipe (the process exited early) instead of trapping.
        try? cli.stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try cli.stdin.fileHandleForWriting.close()
        _ = await cli.exitStatus()
        return cli
    }

    @Test(
        "trigger: usage errors exit 2 with one line on standard error, nothing on standard output, and no request",
        arguments: [
            (["--event", "e", "--data", "d"], "--channel"),
            (["--channel", "bad name!", "--event", "e", "--data", "d"], "bad name!"),
            ((0...100).flatMap { ["--channel", "c\($0)"] } + ["--event", "e", "--data", "d"], "100"),
            (
                ["--channel", "private-encrypted-a", "--channel", "b", "--event", "e", "--data", "d", "--master-key"]
                    + [CLITests.masterKey], "encrypted"
            ),
            (["--channel", "private-encrypted-a", "--event", "e", "--data", "d"], "master key"),
            // 5,121 characters, 10,242 bytes of UTF-8.
            (["--channel", "c", "--event", "e", "--data", String(repeating: "é", count: 5121)], "10240"),
            (["--channel", "c", "--event", "e", "--data", "d", "--info", "user_count,colour"], "colour"),
            (["--channel", "c", "--event", "e", "--data", "d", "--socket-id", "12"], "12"),
            (["--channel", "c", "--event", "e", "--data", "d", "--master-key", "c2hvcnQ="], "32 bytes"),
            (["--batch", "--channel", "c"], "--batch"),
        ]
    )
    func triggerUsageErrors(extra: [String], message: String) async throws {
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { server in
            let cli = try await self.run(self.apiArguments("trigger", server) + extra)
            #expect(await cli.exitStatus() == 2, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
            #expect(cli.standardError.split(separator: "\n").count == 1, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines.isEmpty)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("trigger --data - over 10,240 bytes and --batch with a bad line in its first batch exit 2 before any request")
    func triggerInputUsageErrors() async throws {
        let good = #"{"channel":"c","event":"e","data":"x"}"#
        let inputs: [([String], String, String)] = [
            (["--channel", "c", "--event", "e", "--data", "-"], String(repeating: "a", count: 10_241) + "\n", "10241"),
            (["--batch"], Array(repeating: good, count: 8).joined(separator: "\n") + "\n{\"channel\":1}\n", "line 9"),
            (["--batch"], Array(repeating: good, count: 6).joined(separator: "\n") + "\n" + good + "x\n", "line 7"),
            (
                ["--batch"],
                Array(repeating: good, count: 9).joined(separator: "\n") + "\n"
                    + #"{"channel":"bad channel","event":"e","data":"x"}"#, "bad channel"
            ),
            (["--batch"], #"{"channel":"c","event":"e","data":"x","name":"typo"}"#, "\"name\""),
            (["--batch"], String(repeating: "a", count: (1 << 20) + 1), "longer than 1048576 bytes"),
            (["--batch"], "\n\n", "no events"),
        ]
        for (extra, input, message) in inputs {
            try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: Self.secret) { server in
                let cli = try await self.run(self.apiArguments("trigger", server) + extra, input: input)
                #expect(await cli.exitStatus() == 2, "\(extra) stderr: \(cli.standardError)")
                #expect(cli.standardError.contains(message), "\(extra) stderr: \(cli.standardError)")
                #expect(cli.standardOutputLines.isEmpty)
                #expect(server.requests.isEmpty, "\(extra)")
            }
        }
    }

    @Test("trigger prints the server's response on one line, as returned; the request is signed and carries the event")
    func triggerPrintsResponse() async throws {
        let response = #"{"channels":{"prices":{"subscription_count":3}}}"#
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { _ in (200, response + "\n") }
        ) { server in
            let cli = try await self.run(
                self.apiArguments("trigger", server) + [
                    "--channel", "prices", "--channel", "news", "--event", "update", "--data", "-",
                    "--socket-id", "123.456", "--info", "subscription_count",
                ],
                input: #"{"price":"10 €"}"# + "\n"
            )
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == [response])
            let request = try #require(server.requests.first)
            #expect(server.requests.count == 1)
            #expect(request.signatureProblem == nil)
            #expect(request.method == "POST" && request.path == "/apps/cli-app/events")
            let body = try JSONValue(parsing: request.body)
            #expect(body["name"] == "update")
            #expect(body["channels"] == ["prices", "news"])
            #expect(body["data"] == #"{"price":"10 €"}"#)
            #expect(body["socket_id"] == "123.456")
            #expect(body["info"] == "subscription_count")
        }
    }

    @Test("an HTTP error prints its status and body on standard error and exits 1; nothing on standard output")
    func triggerHTTPError() async throws {
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { _ in (413, "Payload too large\u{1B}[2J") }
        ) { server in
            let cli = try await self.run(
                self.apiArguments("trigger", server) + ["--channel", "c", "--event", "e", "--data", "d"])
            #expect(await cli.exitStatus() == 1, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("413"), "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains(#"Payload too large\x1B[2J"#), "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines.isEmpty)
        }
        // A wrong secret: the server's own check refuses the signature.
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: "another-secret") { server in
            let cli = try await self.run(
                self.apiArguments("trigger", server) + ["--channel", "c", "--event", "e", "--data", "d"])
            #expect(await cli.exitStatus() == 1, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("401") && cli.standardError.contains("invalid signature"))
            #expect(!cli.standardError.contains(Self.secret))
        }
    }

    @Test("trigger --batch: batches of at most 10 in input order, one output line per batch response")
    func triggerBatch() async throws {
        let count = NIOLockedValueBox(0)
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret,
            respond: { _ in
                let number = count.withLockedValue { count in
                    count += 1
                    return count
                }
                return (200, #"{"batch":[],"n":\#(number)}"#)
            }
        ) { server in
            var lines: [String] = []
            for index in 0..<23 {
                let data = index.isMultiple(of: 2) ? #""text \#(index)""# : #"{"n":\#(index),"list":[1,2]}"#
                lines.append(#"{"channel":"c\#(index)","event":"e","data":\#(data)}"#)
            }
            lines.insert("", at: 5)
            lines[7] = #"{"channel":"c6","event":"e","data":"x","socket_id":"1.2"}"#
            let cli = try await self.run(
                self.apiArguments("trigger", server) + ["--batch"],
                input: lines.joined(separator: "\n") + "\n")
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardOutputLines == [#"{"batch":[],"n":1}"#, #"{"batch":[],"n":2}"#, #"{"batch":[],"n":3}"#])
            let requests = server.requests
            #expect(requests.allSatisfy { $0.signatureProblem == nil && $0.path == "/apps/cli-app/batch_events" })
            let batches = try requests.map { request -> [JSONValue] in
                guard case .array(let events)? = try JSONValue(parsing: request.body)["batch"] else { return [] }
                return events
            }
            #expect(batches.map(\.count) == [10, 10, 3])
            let events = batches.flatMap { $0 }
            #expect(events.map { $0["channel"]?.stringValue } == (0..<23).map { "c\($0)" })
            #expect(events[0]["data"] == "text 0")
            #expect(events[1]["data"] == #"{"list":[1,2],"n":1}"#)
            #expect(events[6]["socket_id"] == "1.2" && events[6]["data"] == "x")
            #expect(events[5]["socket_id"] == nil)
        }
    }

    /// What the loopback server answers a query at `path`: the HTTP API's shapes, with values a
    /// typed result would not print the same way (spaces, key order).
    static func queryAnswer(_ path: String) -> String {
        if path.hasSuffix("/users") { return #"{"users": [{"id": "7"}, {"id": "8"}]}"# }
        if path.hasSuffix("/channels") { return #"{"channels": {"presence-room": {"user_count": 2}}}"# }
        return #"{"subscription_count": 3, "user_count": 2, "occupied": true}"#
    }

    @Test("channels, channel and users print the server's response; their queries are signed")
    func queries() async throws {
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { request in (200, Self.queryAnswer(request.path)) }
        ) { server in
            let runs: [([String], String, [String: String])] = [
                (
                    self.apiArguments("channels", server) + ["--prefix", "presence-", "--info", "user_count"],
                    "/apps/cli-app/channels", ["filter_by_prefix": "presence-", "info": "user_count"]
                ),
                (
                    self.apiArguments("channel", server) + [
                        "presence-room", "--info", "user_count,subscription_count",
                    ],
                    "/apps/cli-app/channels/presence-room", ["info": "user_count,subscription_count"]
                ),
                (
                    self.apiArguments("users", server) + ["presence-room"],
                    "/apps/cli-app/channels/presence-room/users", [:]
                ),
            ]
            for (index, (arguments, path, query)) in runs.enumerated() {
                let cli = try await self.run(arguments)
                #expect(await cli.exitStatus() == 0, "\(arguments[0]) stderr: \(cli.standardError)")
                #expect(cli.standardOutputLines == [Self.queryAnswer(path)])
                let request = try #require(server.requests.count > index ? server.requests[index] : nil)
                #expect(request.method == "GET" && request.path == path && request.signatureProblem == nil)
                for (name, value) in query { #expect(request.query[name] == value, "\(name)") }
            }
        }
    }

    @Test("the secret can come from --secret-file (trailing newline ignored) or PUSHER_SECRET; none is a usage error")
    func apiSecretSources() async throws {
        let file = try self.temporaryFile(Self.secret + "\n")
        defer { try? FileManager.default.removeItem(at: file) }
        try await RecordingAPIServer.withRunning(
            key: Self.apiKey, secret: Self.secret, respond: { request in (200, Self.queryAnswer(request.path)) }
        ) { server in
            var base = self.apiArguments("users", server) + ["presence-room"]
            base.removeSubrange(5...6)  // --secret SECRET
            for (extra, environment) in [(["--secret-file", file.path], [:]), ([], ["PUSHER_SECRET": Self.secret])] {
                let cli = try await self.run(base + extra, environment: environment)
                #expect(await cli.exitStatus() == 0, "\(extra) stderr: \(cli.standardError)")
            }
            #expect(server.requests.count == 2 && server.requests.allSatisfy { $0.signatureProblem == nil })
            let missing = try await self.run(base, environment: ["PUSHER_SECRET": ""])
            #expect(await missing.exitStatus() == 2)
            #expect(missing.standardError.contains("PUSHER_SECRET"))
            #expect(server.requests.count == 2)
        }
    }
}
