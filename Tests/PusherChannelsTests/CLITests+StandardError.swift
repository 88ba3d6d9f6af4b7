// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

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
}
