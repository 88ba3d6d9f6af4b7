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

// Standard error never blocks a command, even when nobody reads it.
extension CLITests {
    @Test("listen and trigger run and exit while nobody reads their standard error")
    func unreadStandardError() async throws {
        try await FakePusherServer.withRunning { server in
            // listen writes its connection states on standard error from the start.
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "news", "--count", "1"], readsErrors: false)
            await server.waitForSubscribers(of: "news")
            await server.trigger(channel: "news", event: "update", data: "1")
            let clock = ContinuousClock()
            let start = clock.now
            #expect(await cli.exitStatus() == 0)
            #expect(clock.now - start < .seconds(5))
            #expect(cli.standardOutputLines == [#"{"channel":"news","event":"update","data":"1"}"#])
        }
        // An HTTP error is a line on standard error, then exit 1.
        try await RecordingAPIServer.withRunning(key: Self.apiKey, secret: "another-secret") { server in
            let cli = try CLIProcess(
                self.apiArguments("trigger", server) + ["--channel", "c", "--event", "e", "--data", "d"],
                readsErrors: false)
            try cli.stdin.fileHandleForWriting.close()
            let clock = ContinuousClock()
            let start = clock.now
            #expect(await cli.exitStatus() == 1)
            #expect(clock.now - start < .seconds(5))
            #expect(server.requests.count == 1)
        }
    }

    @Test("lines standard error cannot take are dropped and counted; the count is told once it takes lines again")
    func droppedStandardErrorLines() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channel", "news"], readsErrors: false)
            await server.waitForSubscribers(of: "news")
            // Each line is refused with a line of about 1 KB on standard error: 256 of them are
            // far more than the pipe (full) and the writer's 64 KiB can hold.
            let bad = Array(String(repeating: "x", count: 1000).utf8) + [10]
            let input = Array([[UInt8]](repeating: bad, count: 256).joined())
            let taken = await cli.sendWithoutBlocking(input, within: .seconds(10))
            #expect(taken == input.count, "standard input took \(taken) of \(input.count) bytes")
            let notice = "of standard error dropped"
            let errors = await cli.readUnreadErrors(until: notice, within: .seconds(10)) {
                cli.send(line: "x")
            }
            let line = errors.split(separator: "\n").first { $0.contains(notice) }
            let count = line.flatMap { Int($0.dropFirst("pusher-channels: ".count).prefix { $0.isNumber }) }
            #expect((count ?? 0) > 0, "no count of dropped lines")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0)
        }
    }
}
