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

// Standard input's line limit, standard output's escaping, the backoff after a consumer fell behind.
extension CLITests {
    @Test("a standard input line over 1 MiB is skipped with an error; the next line is read")
    func overlongInputLine() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"])
            await server.waitForSubscribers(of: "news")
            cli.send(line: String(repeating: "x", count: 3 << 20))
            cli.send(line: "lonely")
            await cli.waitForStandardError(containing: "got 'lonely'")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardError.contains(
                    "client event: a line of \(3 << 20) bytes is longer than \(1 << 20) bytes; skipped"),
                "stderr: \(cli.standardError.prefix(2000))")
            #expect(!cli.standardError.contains("xxxx"))
        }
    }

    @Test("DEL, C1 controls and bidirectional controls from the server are escaped on standard output as JSON escapes")
    func standardOutputEscapesDELC1AndBidi() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news", "--count", "1"])
            await server.waitForSubscribers(of: "news")
            let data = "a\u{7F}b\u{85}c\u{9B}2Jd\u{202E}e\u{2066}f\u{200F}g\u{61C}h\u{1B}é"
            await server.trigger(channel: "news", event: "note\u{202E}", data: data)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            let line = try #require(cli.standardOutputLines.first)
            let forbidden: Set<UInt32> = [0x7F, 0x85, 0x9B, 0x202E, 0x2066, 0x200F, 0x61C, 0x1B]
            #expect(!line.unicodeScalars.contains { forbidden.contains($0.value) }, "\(line.debugDescription)")
            #expect(line.contains(#"a\u007Fb\u0085c\u009B2Jd\u202Ee\u2066f\u200Fg\u061Ch"#), "\(line)")
            // The same JSON value: the escapes decode to what the server sent.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["data"] as? String == data)
            #expect(object["event"] as? String == "note\u{202E}")
        }
    }

    @Test("with --when-full fail, a consumer that fell behind subscribes again only after the backoff's first delay")
    func resubscribeBacksOff() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            // Standard output is full and never read: the consumer falls behind at once.
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString, "--channel", "private-feed",
                    "--buffer-limit", "1", "--when-full", "fail",
                ],
                readsOutput: false,
                fillsOutputPipe: true
            )
            await server.waitForSubscribers(of: "private-feed")
            let payload = String(repeating: "p", count: 200)
            for _ in 0..<1_000 { await server.trigger(channel: "private-feed", event: "tick", data: payload) }
            // The consumer that fell behind leaves the channel: the server sees the unsubscription
            // as it happens (the standard error line that says so may come later on a loaded
            // machine, and once made this measure 0.18 s).
            await server.waitForMessages(named: "pusher:unsubscribe")
            let fellBehind = ContinuousClock.now
            await server.waitUntil { $0.authRequests.count >= 2 }
            let waited = ContinuousClock.now - fellBehind
            // The default backoff: 1 s, less up to 20 % jitter.
            #expect(waited >= .milliseconds(500), "subscribed again after \(waited)")
            await cli.waitForStandardError(containing: "fell behind standard output")
            cli.send(signal: SIGINT)
            cli.startReadingOutput()
            _ = await cli.exitStatus()
        }
    }
}
