// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

// One channel's failure, output that falls behind or goes away, --quiet and --stats.
extension CLITests {
    @Test("a channel refused by the auth endpoint (403) or with an invalid name is reported; the others keep flowing")
    func oneFailingChannel() async throws {
        try await FakePusherServer.withRunning { server in
            await server.setAuthEndpoint(.respond(status: 403, body: #"{"error":"forbidden"}"#))
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString,
                    "--channel", "news", "--channel", "private-orders", "--channel", "bad name!", "--channel", "sports",
                    "--count", "2",
                ]
            )
            await server.waitForSubscribers(of: "news")
            await server.waitForSubscribers(of: "sports")
            await cli.waitForStandardError(containing: "authorizationFailed")
            await server.trigger(channel: "news", event: "headline", data: "n")
            await server.trigger(channel: "sports", event: "score", data: "s")
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardOutputLines == [
                    #"{"channel":"news","event":"headline","data":"n"}"#,
                    #"{"channel":"sports","event":"score","data":"s"}"#,
                ]
            )
            #expect(cli.standardError.contains("HTTP 403 [channel private-orders]"), "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("invalidChannelName"), "stderr: \(cli.standardError)")
        }
    }

    @Test("a private channel without --secret or --auth-endpoint is reported; a public one keeps flowing")
    func unauthorizableChannelBesideAPublicOne() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "private-orders", "--channel", "news", "--count", "1"])
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "headline", data: "n")
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines == [#"{"channel":"news","event":"headline","data":"n"}"#])
            #expect(cli.standardError.contains("authorizationRequired"))
        }
    }

    @Test("a refusal as soketi, Reverb and serve send it shows the server's type, message and status")
    func subscriptionErrorDetails() async throws {
        var configuration = FakePusherServer.Configuration(appSecret: Self.secret)
        configuration.authRefusal = .subscriptionError
        try await FakePusherServer.withRunning(configuration: configuration) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--secret", "not-the-secret", "--channel", "private-a"])
            #expect(await cli.exitStatus() == 3, "stderr: \(cli.standardError)")
            let line = cli.standardError.split(separator: "\n").first { $0.contains("subscriptionFailed") }
            #expect(line?.hasPrefix("error: subscriptionFailed: Invalid signature") == true, "\(cli.standardError)")
            #expect(line?.hasSuffix("[channel private-a] (HTTP 401) (type AuthError)") == true, "\(cli.standardError)")
        }
    }

    @Test("when every channel failed the command exits with status 3")
    func everyChannelFailed() async throws {
        try await FakePusherServer.withRunning { server in
            await server.setAuthEndpoint(.respond(status: 403, body: "{}"))
            let refused = try CLIProcess(
                self.connectionArguments(server) + [
                    "--auth-endpoint", server.authEndpoint.absoluteString, "--channel", "private-a", "--channel",
                    "private-b",
                ]
            )
            #expect(await refused.exitStatus() == 3, "stderr: \(refused.standardError)")
            #expect(refused.standardError.contains("every channel failed"))
            #expect(await server.snapshot.authRequests.count == 2)

            let invalid = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "bad name!", "--channel", "private-x"])
            #expect(await invalid.exitStatus() == 3, "stderr: \(invalid.standardError)")
            #expect(await server.snapshot.connections.count == 1, "nothing to subscribe: no connection")
        }
    }

    @Test("by default a consumer that falls behind standard output pauses reading: every event is printed, in order")
    func pauseReadingByDefault() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "flood", "--buffer-limit", "10"],
                readsOutput: false,
                fillsOutputPipe: true
            )
            await server.waitForSubscribers(of: "flood")
            let data = String(repeating: "x", count: 1000)
            for index in 0..<400 { await server.trigger(channel: "flood", event: "e\(index)", data: data) }
            await server.trigger(channel: "flood", event: "marker", data: "after")
            cli.startReadingOutput()
            let isMarker: (String) -> Bool = { $0.contains(#""event":"marker""#) }
            var version = 0
            while !cli.standardOutputLines.contains(where: isMarker) {
                version = await cli.waitForChange(after: version)
            }
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            let events = cli.standardOutputLines.filter { !$0.hasPrefix("#") }
            let expected = (0..<400).map { #"{"channel":"flood","event":"e\#($0)","data":"\#(data)"}"# }
            #expect(events == expected + [#"{"channel":"flood","event":"marker","data":"after"}"#])
            #expect(!cli.standardError.contains("consumerTooSlow"), "stderr: \(cli.standardError)")
            #expect(await server.snapshot.connections.count == 1, "stderr: \(cli.standardError)")
        }
    }

    @Test(
        "with --when-full fail a consumer that falls behind standard output is reported and subscribed again; output is bounded"
    )
    func consumerTooSlow() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + [
                    "--channel", "flood", "--buffer-limit", "10", "--when-full", "fail",
                ],
                readsOutput: false,
                fillsOutputPipe: true
            )
            await server.waitForSubscribers(of: "flood")
            let data = String(repeating: "x", count: 1000)
            for index in 0..<400 { await server.trigger(channel: "flood", event: "e\(index)", data: data) }
            // Once the client answered a ping sent after the flood, it has taken in every event of it.
            await server.send(raw: #"{"event":"pusher:ping","data":{}}"#)
            _ = await server.waitForMessages(named: "pusher:pong")
            cli.startReadingOutput()
            // A consumer subscribed again may fall behind too (on a loaded machine): a marker it
            // loses is followed by its report, and then by another marker.
            let isMarker: (String) -> Bool = { $0.contains(#""event":"marker""#) }
            var version = 0
            while !cli.standardOutputLines.contains(where: isMarker) {
                let reports = cli.standardError.components(separatedBy: "subscribing again").count - 1
                await server.waitUntil { $0.subscribers(of: "flood") == 1 }
                await server.trigger(channel: "flood", event: "marker", data: "after")
                while !cli.standardOutputLines.contains(where: isMarker),
                    cli.standardError.components(separatedBy: "subscribing again").count - 1 == reports
                {
                    version = await cli.waitForChange(after: version)
                }
            }
            let seen = cli.standardOutputLines.filter { !$0.hasPrefix("#") }.firstIndex(where: isMarker)! + 1
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(
                cli.standardOutputLines.last == #"{"channel":"flood","event":"marker","data":"after"}"#,
                "stderr: \(cli.standardError)")
            #expect(seen < 300, "events beyond the buffers were dropped, not held: \(seen) lines")
            #expect(cli.standardError.contains("consumerTooSlow"))
            #expect(cli.standardError.contains("subscribing again"))
        }
    }

    @Test("a closed standard output ends the process at once with a normal close, even on a quiet channel")
    func closedStandardOutput() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"])
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "headline", data: "first")
            var lines = cli.lines.makeAsyncIterator()
            #expect(await lines.next() == #"{"channel":"news","event":"headline","data":"first"}"#)
            cli.closeStandardOutput()
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            await server.waitUntil { $0.openConnections.isEmpty }
            #expect(await server.snapshot.connections.first?.clientCloseCode == 1000)
        }
    }

    @Test("a closed standard output is found on the next write when it cannot be watched")
    func closedStandardOutputOnWrite() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"])
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "headline", data: "first")
            var lines = cli.lines.makeAsyncIterator()
            _ = await lines.next()
            cli.closeStandardOutput()
            // Whichever comes first, the hang-up or the failed write, ends the run.
            for index in 0..<3 { await server.trigger(channel: "news", event: "headline", data: "more \(index)") }
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }

    @Test("--quiet prints no events; --stats prints the count and the rate at exit")
    func quietWithStats() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "ticks", "--quiet", "--stats", "--count", "3"])
            await server.waitForSubscribers(of: "ticks")
            for index in 1...3 { await server.trigger(channel: "ticks", event: "tick", data: "\(index)") }
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            let lines = cli.standardOutputLines
            #expect(lines.count == 1)
            let summary = try #require(lines.first)
            #expect(summary.hasPrefix("events=3 seconds="), "\(summary)")
            #expect(summary.hasSuffix("/s") && summary.contains(" rate="), "\(summary)")
        }
    }

    @Test("--stats after SIGINT counts what arrived")
    func statsAfterInterrupt() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "ticks", "--stats"])
            var lines = cli.lines.makeAsyncIterator()
            await server.waitForSubscribers(of: "ticks")
            for index in 1...2 { await server.trigger(channel: "ticks", event: "tick", data: "\(index)") }
            _ = await lines.next()
            _ = await lines.next()
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines.count == 3)
            #expect(cli.standardOutputLines.last?.hasPrefix("events=2 ") == true)
        }
    }
}
