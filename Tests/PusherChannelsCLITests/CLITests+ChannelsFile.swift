// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

extension CLITests {
    /// The `channel` of every `pusher:subscribe` the server received, in order.
    func subscribedChannels(_ server: FakePusherServer) async -> [String] {
        await server.snapshot.messages(named: "pusher:subscribe").compactMap {
            try? $0.message?.parsedData()["channel"]?.stringValue
        }
    }

    @Test(
        "--channels-file subscribes to every channel it names, after the --channel ones; comments, blank lines and repeats are skipped"
    )
    func channelsFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("channels-\(UUID().uuidString).txt")
        try "# market data\nalpha\n\n  beta  \n#gamma\nalpha\nzeta\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--channel", "zeta", "--channels-file", file.path, "--count", "3"]
            )
            for channel in ["alpha", "beta", "zeta"] { await server.waitForSubscribers(of: channel) }
            for channel in ["alpha", "beta", "zeta"] {
                await server.trigger(channel: channel, event: "tick", data: channel)
            }
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(
                Set(cli.standardOutputLines) == [
                    #"{"channel":"alpha","event":"tick","data":"alpha"}"#,
                    #"{"channel":"beta","event":"tick","data":"beta"}"#,
                    #"{"channel":"zeta","event":"tick","data":"zeta"}"#,
                ]
            )
            #expect(await self.subscribedChannels(server).sorted() == ["alpha", "beta", "zeta"])
        }
    }

    @Test("--channels-file - reads the channel names from standard input")
    func channelsFromStandardInput() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channels-file", "-", "--count", "2"])
            cli.send(line: "north")
            cli.send(line: "# not a channel")
            cli.send(line: "south")
            cli.stdin.fileHandleForWriting.closeFile()
            await server.waitForSubscribers(of: "north")
            await server.waitForSubscribers(of: "south")
            await server.trigger(channel: "north", event: "tick", data: "n")
            await server.trigger(channel: "south", event: "tick", data: "s")
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutputLines.count == 2)
            #expect(await self.subscribedChannels(server).sorted() == ["north", "south"])
        }
    }

    @Test("a --channels-file that cannot be read stops the command with a usage error")
    func unreadableChannelsFile() async throws {
        try await FakePusherServer.withRunning { server in
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
                "missing-\(UUID().uuidString).txt")
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channels-file", missing.path])
            let status = await cli.exitStatus()
            #expect(status == 2, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("cannot read --channels-file"))
            #expect(await server.snapshot.connections.isEmpty)
        }
    }

    @Test(
        "--channels-file is bounded: over 16 MiB or over 100000 channels is a usage error before connecting",
        arguments: [true, false]
    )
    func boundedChannelsFile(overSize: Bool) async throws {
        // Made here, not passed as an argument: Swift Testing prints arguments.
        let (contents, message) =
            overSize
            ? (String(repeating: "#\n", count: 8_400_000), "is longer than 16777216 bytes")
            : ((0...100_000).map { "c\($0)" }.joined(separator: "\n"), "name 100001 channels, more than 100000")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("channels-\(UUID().uuidString).txt")
        try contents.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess(self.connectionArguments(server) + ["--channels-file", file.path])
            let status = await cli.exitStatus()
            #expect(status == 2, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains(message), "stderr: \(cli.standardError)")
            #expect(await server.snapshot.connections.isEmpty)
        }
    }
}
