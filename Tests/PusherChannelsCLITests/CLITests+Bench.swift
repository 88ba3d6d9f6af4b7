// SPDX-License-Identifier: MIT

import Foundation
import PusherChannels
import PusherChannelsTesting
import Testing

extension CLITests {
    /// The `name=value` lines of a `bench` run.
    func benchFigures(_ cli: CLIProcess) -> [String: String] {
        var figures: [String: String] = [:]
        for line in cli.standardOutputLines {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { figures[String(parts[0])] = String(parts[1]) }
        }
        return figures
    }

    @Test(
        "bench consumes every event of its load server and prints the figures",
        arguments: [
            ["--events", "3000", "--channels", "3"],
            ["--events", "500", "--encrypted"],
            ["--events", "1000", "--channels", "2", "--in-process"],
        ]
    )
    func benchWithLoadServer(arguments: [String]) async throws {
        let cli = try CLIProcess(["bench"] + arguments)
        let status = await cli.exitStatus()
        #expect(status == 0, "stderr: \(cli.standardError)")
        let figures = self.benchFigures(cli)
        #expect(figures["events"] == arguments[1])
        for name in ["events_per_second", "cpu_us_per_event", "peak_rss_mib", "subscribe_seconds"] {
            #expect(figures[name].flatMap(Double.init) != nil, "\(name) in \(cli.standardOutputLines)")
        }
        #expect((figures["server_cpu_us_per_event"] != nil) == !arguments.contains("--in-process"))
        #expect((figures["rss_bytes_per_channel"] != nil) == arguments.contains("--channels"))
    }

    @Test("bench --host measures a real server's channel: the events someone else sends there")
    func benchWithRealServer() async throws {
        try await FakePusherServer.withRunning { server in
            let cli = try CLIProcess([
                "bench", "--key", server.appKey, "--host", server.host, "--port", "\(server.port)", "--no-tls",
                "--channel", "prices", "--events", "3",
            ])
            await server.waitForSubscribers(of: "prices")
            for price in 1...3 {
                await server.trigger(channel: "prices", event: "price", data: #"{"price":\#(price)}"#)
            }
            let status = await cli.exitStatus()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(self.benchFigures(cli)["events"] == "3")
        }
    }

    @Test(
        "bench refuses options that do not fit together",
        arguments: [
            (["--channel", "prices"], "need --host or --cluster"),
            (["--buffer-limit", "0"], "--buffer-limit must be at least 1"),
            (["--channels", "10", "--events", "5"], "--channels must be from 1 to --events"),
        ]
    )
    func benchValidation(arguments: [String], message: String) async throws {
        let cli = try CLIProcess(["bench"] + arguments)
        let status = await cli.exitStatus()
        #expect(status == 2, "stderr: \(cli.standardError)")
        #expect(cli.standardError.contains(message))
    }
}
