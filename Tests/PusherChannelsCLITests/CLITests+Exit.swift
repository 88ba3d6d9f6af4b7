// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Exit statuses and signals of `listen`.
extension CLITests {
    @Test("SIGINT and SIGTERM close the connection with 1000 and exit 0", arguments: [SIGINT, SIGTERM])
    func interruptClosesNormally(signal: Int32) async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"])
            await server.waitForSubscribers(of: "news")
            cli.send(signal: signal)
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            await server.waitUntil { $0.openConnections.isEmpty }
            #expect(await server.snapshot.connections.first?.clientCloseCode == 1000)
        }
    }

    @Test("a server close with 4001 ends the command with status 1; the close reason's control characters are escaped")
    func serverCloseExitsOne() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"])
            await server.waitForSubscribers(of: "news")
            await server.close(code: 4001, reason: "unknown \u{1B}[2Jkey\u{07}\u{202E}")
            let status = await cli.exitStatus()
            #expect(status == 1, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("4001"))
            #expect(cli.standardError.contains(#"unknown \x1B[2Jkey\x07\u{202E}"#), "stderr: \(cli.standardError)")
            #expect(!cli.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
            #expect(!cli.standardError.unicodeScalars.contains { $0.value == 0x202E })
        }
    }

    @Test("event names and error messages from the server are escaped on standard error")
    func serverTextEscaped() async throws {
        let configuration = FakePusherServer.Configuration(appSecret: Self.secret, encryptionMasterKey: Self.masterKey)
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--secret", Self.secret, "--master-key", Self.masterKey, "--channel", "private-encrypted-x",
                ]
            )
            await server.waitForSubscribers(of: "private-encrypted-x")
            await server.send(
                raw:
                    #"{"event":"forged\u001b]0;owned\u0007","channel":"private-encrypted-x","data":"{\"nonce\":\"AAAA\",\"ciphertext\":\"AAAA\"}"}"#
            )
            await server.sendError(message: "slow down\r\nstate: connected", code: 4301)
            await cli.waitForStandardError(containing: "slow down")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0)
            #expect(cli.standardError.contains(#"forged\x1B]0;owned\x07"#), "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains(#"slow down\x0D\x0Astate: connected"#), "stderr: \(cli.standardError)")
            #expect(!cli.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
    }

    @Test("a second SIGINT ends the process at once (130), while the first one's shutdown waits for standard output")
    func secondInterruptExitsAtOnce() async throws {
        try await FakePusherServer.withRunning { server in
            // Standard output is full from the start and nobody reads it: the shutdown waits to
            // write what the consumer took.
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "news", "--stats"],
                readsOutput: false,
                fillsOutputPipe: true
            )
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "headline", data: "blocked")
            // Once the client answered a ping sent after the event, its consumer has it.
            await server.send(raw: #"{"event":"pusher:ping","data":{}}"#)
            _ = await server.waitForMessages(named: "pusher:pong")
            cli.send(signal: SIGINT)
            await server.waitUntil { $0.openConnections.isEmpty }
            #expect(await server.snapshot.connections.first?.clientCloseCode == 1000)
            cli.send(signal: SIGINT)
            // Read only once the process ended: reading would let the shutdown finish.
            let status = await cli.terminationStatus()
            cli.startReadingOutput()
            _ = await cli.exitStatus()
            #expect(status == 130, "stderr: \(cli.standardError)")
        }
    }

    @Test(
        "usage errors exit with status 2",
        arguments: [
            (["--auth-header", ":"], "the name is empty"),
            (["--auth-header", "no colon"], "no ':' found"),
            (["--auth-header", "Bad Name: x"], "not a valid HTTP header name"),
            (["--auth-header", "X-Token: a\r\nInjected: b"], "line break"),
            (["--buffer-limit", "0"], "--buffer-limit must be at least 1"),
            (["--when-full", "sometimes"], "--when-full"),
            (
                ["--ca-file", "/nonexistent/ca.pem"],
                "--ca-file: cannot read the certificate authority file /nonexistent/ca.pem"
            ),
            (["--secret", "s", "--secret-file", "/tmp/x"], "give --secret or --secret-file, not both"),
            (["--secret-file", "/nonexistent/secret"], "cannot read --secret-file /nonexistent/secret: no such file"),
            (["--master-key", "c2hvcnQ="], "the encryption master key must be base64 of 32 bytes"),
            (["--unknown-flag"], "Unknown option"),
            (["--port", "70000"], "invalid port 70000: it must be 1–65535"),
            (["--port", "0"], "invalid port 0: it must be 1–65535"),
            (["--path", "/ws path"], "invalid path '/ws path'"),
            (["--host", "bad host"], "invalid host 'bad host'"),
        ]
    )
    func usageErrors(extra: [String], message: String) async throws {
        let cli = try CLIProcess(
            ["listen", "--key", "k", "--host", "127.0.0.1", "--port", "1", "--channel", "news"] + extra)
        let status = await cli.exitStatus()
        #expect(status == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
    }

    @Test("an invalid --cluster is a usage error (status 2), not a connection failure")
    func invalidClusterIsUsage() async throws {
        let cli = try CLIProcess(["listen", "--key", "k", "--cluster", "x@evil.com#", "--channel", "news"])
        let status = await cli.exitStatus()
        #expect(status == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains("invalid cluster 'x@evil.com#'"), "stderr: \(cli.standardError)")
    }
}
