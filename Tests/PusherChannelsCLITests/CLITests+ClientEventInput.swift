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

// `listen`'s client events from standard input.
extension CLITests {
    @Test("listen reads client-event lines only as fast as the client sends them: the producer waits, no line is lost")
    func listenClientEventBackpressure() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--secret", Self.secret, "--channel", "private-room", "--quiet"])
            await server.waitForSubscribers(of: "private-room")
            // A producer far faster than the client-event rate limit (10 a second), for 3 seconds.
            let descriptor = cli.stdin.fileHandleForWriting.fileDescriptor
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let padding = String(repeating: "p", count: 1000)
            var (written, index, line) = (0, 0, [UInt8]())
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(3))
            while clock.now < deadline && written < 8 << 20 {
                if line.isEmpty {
                    line = Array(#"private-room client-n {"i":\#(index),"p":"\#(padding)"}"#.utf8) + [10]
                    index += 1
                }
                let count = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    written += count
                    line.removeFirst(count)
                } else {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            // Without waiting, the reader takes everything (8 MiB) and the client refuses what its
            // queue of 100 cannot hold.
            #expect(written < 2 << 20, "standard input took \(written) bytes")
            let received = await server.waitForMessages(named: "client-n", count: 25)
            let numbers = try received.map { try $0.message?.parsedData()["i"]?.jsonText }
            #expect(Array(numbers.prefix(25)) == (0..<25).map { Optional("\($0)") })
            #expect(!cli.standardError.contains("client event:"), "stderr: \(cli.standardError)")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }
}

extension CLITests {
    @Test("listen reports a client event whose name is over 200 bytes and goes on with the next line")
    func listenClientEventNameTooLong() async throws {
        try await FakePusherServer.withRunning(configuration: .init(appSecret: Self.secret)) { server in
            let cli = try CLIProcess(
                self.connectionArguments(server) + ["--secret", Self.secret, "--channel", "private-room", "--quiet"])
            await server.waitForSubscribers(of: "private-room")
            // Refused with clientEventRejected like a full queue; before, the reader waited for room
            // for this line forever and read nothing after it.
            let longName = "client-" + String(repeating: "n", count: 194)
            cli.send(line: #"private-room \#(longName) {"i":0}"#)
            cli.send(line: #"private-room client-after {"i":1}"#)
            await cli.waitForStandardError(containing: "client event:")
            let received = await server.waitForMessages(named: "client-after", count: 1)
            #expect(received.count == 1)
            #expect(cli.standardError.contains("longer than 200"), "stderr: \(cli.standardError)")
            cli.send(signal: SIGINT)
            #expect(await cli.exitStatus() == 0, "stderr: \(cli.standardError)")
        }
    }
}
